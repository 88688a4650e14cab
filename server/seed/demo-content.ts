/**
 * Demo content: a help centre students and staff would really use (top-up, payments, refunds,
 * a lost card, parking, account approval) in English and Chinese, and merchant announcements in
 * every state (scheduled, live, pinned, for chosen categories, expired), dated from the seeding
 * day so that their states hold whenever the demo is started.
 */
import type { HelpCategory } from "../../src/shared/modules/help-articles";
import { sanitizeBody } from "../content/sanitize";
import type { Tx } from "../db";
import { helpArticles, merchantAnnouncements } from "../db/schema";

const DAY = 86_400_000;

interface DemoArticle {
  category: HelpCategory;
  published: boolean;
  en: [title: string, body: string];
  zh: [title: string, body: string];
}

const ARTICLES: readonly DemoArticle[] = [
  {
    category: "top_up",
    published: true,
    en: [
      "How do I top up my wallet?",
      `<h2>Three ways to top up</h2><ol><li><strong>Online banking (FPX)</strong>: in the app, tap <em>Top Up</em>, choose your bank and confirm. The money arrives at once.</li><li><strong>Card</strong>: Visa or Mastercard debit and credit cards.</li><li><strong>At the counter</strong>: pay cash at the Student Services counter, Block C, ground floor (Mon–Fri, 9 am–5 pm). Bring your student or staff card.</li></ol><p>The smallest top-up is RM 5 and your balance can hold up to RM 1,500.</p>`,
    ],
    zh: [
      "如何为钱包充值？",
      `<h2>三种充值方式</h2><ol><li><strong>网上银行 (FPX)</strong>：在应用中点击<em>充值</em>，选择银行并确认，款项即时到账。</li><li><strong>银行卡</strong>：支持 Visa 或 Mastercard 借记卡和信用卡。</li><li><strong>柜台</strong>：在 C 座底层学生服务柜台以现金支付（周一至周五，上午 9 时至下午 5 时），请携带学生证或员工证。</li></ol><p>每次最少充值 RM 5，钱包余额上限为 RM 1,500。</p>`,
    ],
  },
  {
    category: "top_up",
    published: true,
    en: [
      "My top-up has not arrived",
      `<p>FPX top-ups usually arrive within a minute. If your bank took the money but your balance did not change:</p><ul><li>Wait 15 minutes and pull down to refresh the wallet screen.</li><li>Check <em>History</em>: a <strong>pending</strong> top-up is still being confirmed by your bank.</li><li>If it shows <strong>failed</strong>, your bank returns the money within 3 working days.</li></ul><p>Still missing? Send us the bank's reference number through <em>Help &gt; Report a problem</em>.</p>`,
    ],
    zh: [
      "充值未到账怎么办？",
      `<p>FPX 充值通常在一分钟内到账。如果银行已扣款但余额未变：</p><ul><li>等待 15 分钟后下拉刷新钱包页面。</li><li>查看<em>交易记录</em>：显示<strong>处理中</strong>表示银行仍在确认。</li><li>若显示<strong>失败</strong>，银行会在 3 个工作日内退回款项。</li></ul><p>仍未到账？请通过<em>帮助 &gt; 报告问题</em>把银行参考编号发给我们。</p>`,
    ],
  },
  {
    category: "payments",
    published: true,
    en: [
      "Paying at a campus shop",
      `<p>Open the app, tap <strong>Pay</strong> and scan the shop's QR code, or show your own code to the cashier.</p><table><thead><tr><th>Where</th><th>How</th></tr></thead><tbody><tr><td>Canteens and cafés</td><td>Scan the QR code at the counter</td></tr><tr><td>Bookshop and print shop</td><td>Show your payment code</td></tr><tr><td>Laundry</td><td>Scan the code on the machine</td></tr></tbody></table><p>You can spend up to RM 500 a day. The receipt is in <em>History</em>.</p>`,
    ],
    zh: [
      "在校园商店付款",
      `<p>打开应用，点击<strong>付款</strong>并扫描商店的二维码，或向收银员出示您的付款码。</p><table><thead><tr><th>地点</th><th>方式</th></tr></thead><tbody><tr><td>食堂和咖啡馆</td><td>扫描柜台的二维码</td></tr><tr><td>书店和打印店</td><td>出示付款码</td></tr><tr><td>洗衣房</td><td>扫描机器上的二维码</td></tr></tbody></table><p>每日消费上限为 RM 500，收据可在<em>交易记录</em>中查看。</p>`,
    ],
  },
  {
    category: "payments",
    published: true,
    en: [
      "I was charged twice",
      `<p>A second charge for the same purchase is usually a payment the shop started twice. Check <em>History</em>: if both payments show <strong>success</strong>, ask the shop to refund one of them. If the shop cannot help, report it under <em>Help &gt; Report a problem &gt; Transaction dispute</em> with both references.</p>`,
    ],
    zh: [
      "同一笔消费被扣款两次",
      `<p>同一笔消费出现两次扣款，通常是商户重复发起了付款。请查看<em>交易记录</em>：若两笔均显示<strong>成功</strong>，请联系商户退回其中一笔。若商户无法处理，请在<em>帮助 &gt; 报告问题 &gt; 交易争议</em>中提交两笔交易的参考编号。</p>`,
    ],
  },
  {
    category: "refunds",
    published: true,
    en: [
      "How refunds work",
      `<p>Only the shop that took a payment can refund it, in full or in part. A refund goes back to your wallet at once, never to your bank card.</p><ul><li>Refunds appear in <em>History</em> as <strong>Refund</strong> with the shop's name.</li><li>A payment can be refunded within 30 days.</li></ul>`,
    ],
    zh: [
      "退款如何进行",
      `<p>只有收款的商户可以退款，可全额或部分退款。退款会即时退回您的钱包，不会退回银行卡。</p><ul><li>退款会以<strong>退款</strong>和商户名称显示在<em>交易记录</em>中。</li><li>付款后 30 天内可申请退款。</li></ul>`,
    ],
  },
  {
    category: "refunds",
    published: true,
    en: [
      "Getting your balance back when you leave UCSI",
      `<p>Graduating or leaving? Visit the Student Services counter with your card and bank details. We transfer your remaining balance to your bank account within 14 working days and then close the wallet.</p>`,
    ],
    zh: [
      "离校时取回余额",
      `<p>即将毕业或离校？请携带卡片和银行资料前往学生服务柜台。我们会在 14 个工作日内将剩余余额转入您的银行账户，然后关闭钱包。</p>`,
    ],
  },
  {
    category: "lost_card",
    published: true,
    en: [
      "I lost my student card",
      `<h2>Act at once</h2><ol><li>In the app, go to <em>Profile &gt; Card</em> and tap <strong>Freeze card</strong>. Nobody can pay with it from then on.</li><li>Report the loss at Security, Block A, to get a loss note.</li><li>Get a new card at Student Services (RM 20). Your balance moves to the new card.</li></ol><p>Found the card? Unfreeze it in the same screen.</p>`,
    ],
    zh: [
      "学生证遗失了",
      `<h2>请立即处理</h2><ol><li>在应用中进入<em>个人资料 &gt; 卡片</em>，点击<strong>冻结卡片</strong>，此后任何人都无法用它付款。</li><li>前往 A 座保安处报失，领取遗失证明。</li><li>在学生服务处补办新卡（RM 20），余额会转到新卡。</li></ol><p>找回卡片？在同一页面解除冻结即可。</p>`,
    ],
  },
  {
    category: "parking",
    published: true,
    en: [
      "Paying for parking",
      `<p>Campus car parks charge by the hour, capped per day. The barrier reads your plate on the way in; on the way out the fee is taken from your wallet.</p><ul><li>Keep at least RM 10 in your wallet before you drive in.</li><li>See the rates and free spaces under <em>Parking</em> in the app.</li></ul>`,
    ],
    zh: [
      "停车缴费",
      `<p>校园停车场按小时收费，每日设有上限。入场时闸门识别车牌，离场时从钱包扣除费用。</p><ul><li>入场前请确保钱包余额至少 RM 10。</li><li>在应用的<em>停车</em>页面查看收费标准和空位。</li></ul>`,
    ],
  },
  {
    category: "parking",
    published: false,
    en: [
      "Registering a second car",
      `<p>You can register up to two plates. Add the second one under <em>Parking &gt; My vehicles</em>.</p>`,
    ],
    zh: [
      "登记第二辆车",
      `<p>最多可登记两个车牌，请在<em>停车 &gt; 我的车辆</em>中添加第二个。</p>`,
    ],
  },
  {
    category: "account",
    published: true,
    en: [
      "Why is my account waiting for approval?",
      `<p>New accounts are checked by Student Services against the university records, usually within one working day. Until then you can sign in but not top up or pay.</p><p>If your account was <strong>rejected</strong>, the reason is in the app; correct your details and apply again, or visit the counter.</p>`,
    ],
    zh: [
      "为什么我的账户在等待审核？",
      `<p>新账户需由学生服务处根据学校记录审核，通常在一个工作日内完成。审核完成前可登录，但不能充值或付款。</p><p>若账户被<strong>拒绝</strong>，原因会显示在应用中；请更正资料后重新申请，或前往柜台办理。</p>`,
    ],
  },
  {
    category: "account",
    published: true,
    en: [
      "Changing your phone number or e-mail",
      `<p>Go to <em>Profile &gt; Contact</em> and enter the new number or address. Staff confirm the change, usually the same day; you are told by e-mail. Questions: <a href="mailto:wallet@ucsi.example">wallet@ucsi.example</a>.</p>`,
    ],
    zh: [
      "更改电话号码或电子邮箱",
      `<p>进入<em>个人资料 &gt; 联系方式</em>，输入新号码或地址。工作人员通常会在当天确认更改，并通过电子邮件通知您。如有疑问：<a href="mailto:wallet@ucsi.example">wallet@ucsi.example</a>。</p>`,
    ],
  },
];

const ANNOUNCEMENTS = [
  {
    en: [
      "Settlement dates over the semester break",
      "<p>Payouts for the break are made every Friday instead of daily. Check <strong>Settlement</strong> in the merchant app.</p>",
    ],
    zh: [
      "学期假期结算日期",
      "<p>假期期间的结算改为每周五进行，而非每日。请在商户应用的<strong>结算</strong>中查看。</p>",
    ],
    audience: "all",
    categories: [],
    publishFromNow: -3,
    expireFromNow: 40,
    pinned: true,
  },
  {
    en: [
      "New QR stands for canteens",
      "<p>Collect your new QR stand at Student Services before Friday. The old stickers keep working until the end of the month.</p>",
    ],
    zh: [
      "食堂新二维码立牌",
      "<p>请在周五前到学生服务处领取新的二维码立牌，旧贴纸在月底前仍可使用。</p>",
    ],
    audience: "categories",
    categories: ["canteen", "cafe"],
    publishFromNow: -1,
    expireFromNow: 20,
    pinned: false,
  },
  {
    en: [
      "Planned maintenance on Sunday night",
      "<p>Payments pause on Sunday from 1 am to 3 am. Ask customers to pay by card during that time.</p>",
    ],
    zh: ["周日晚间计划维护", "<p>周日凌晨 1 时至 3 时暂停付款，请在此期间请顾客以银行卡付款。</p>"],
    audience: "all",
    categories: [],
    publishFromNow: 7,
    expireFromNow: 9,
    pinned: false,
  },
  {
    en: [
      "Orientation week opening hours",
      "<p>Orientation week brought 3,000 new students: shops were asked to open from 8 am.</p>",
    ],
    zh: ["迎新周营业时间", "<p>迎新周有 3,000 名新生入学，请各商店自上午 8 时起营业。</p>"],
    audience: "categories",
    categories: ["bookshop", "print_shop", "convenience"],
    publishFromNow: -40,
    expireFromNow: -25,
    pinned: false,
  },
] as const;

/** Inserts the demo help centre and announcements (in the demo seed's transaction). */
export async function seedDemoContent(tx: Tx, authorId: number | null): Promise<void> {
  const now = Date.now();
  const positions = new Map<string, number>();
  await tx.insert(helpArticles).values(
    ARTICLES.map((article, i) => {
      const position = (positions.get(article.category) ?? 0) + 1;
      positions.set(article.category, position);
      const updated = new Date(now - (30 - i) * DAY);
      return {
        category: article.category,
        position,
        titleEn: article.en[0],
        titleZh: article.zh[0],
        bodyEn: sanitizeBody(article.en[1]),
        bodyZh: sanitizeBody(article.zh[1]),
        status: article.published ? ("published" as const) : ("draft" as const),
        authorId,
        publishedAt: article.published ? updated : null,
        createdAt: updated,
        updatedAt: updated,
      };
    }),
  );
  await tx.insert(merchantAnnouncements).values(
    ANNOUNCEMENTS.map((announcement) => ({
      titleEn: announcement.en[0],
      titleZh: announcement.zh[0],
      bodyEn: sanitizeBody(announcement.en[1]),
      bodyZh: sanitizeBody(announcement.zh[1]),
      audience: announcement.audience,
      categories: [...announcement.categories],
      publishAt: new Date(now + announcement.publishFromNow * DAY),
      expiresAt: new Date(now + announcement.expireFromNow * DAY),
      pinned: announcement.pinned,
      authorId,
    })),
  );
}
