import { z } from "zod";

import {
  ADMIN_LANGUAGES,
  APPROVAL_STATUSES,
  LEDGER_CHANNELS,
  LEDGER_STATUSES,
  USER_ROLES,
  WALLET_STATUSES,
} from "../domain";
import {
  defineModule,
  effectAction,
  field,
  form,
  type ItemOf,
  NEWEST_FIRST,
  remarkAction,
} from "../kit/module";
import {
  administratorLink,
  choice,
  instant,
  money,
  recordId,
  selfLink,
  text,
  userLink,
} from "../kit/presets";
import { positiveSen } from "../kit/types";
import { PERMISSION } from "../permissions";
import { safeMultilineText, safeText } from "../text";

/** A staff counter top-up: cash taken at the counter, credited to a wallet. */
export const counterTopUpBody = z
  .strictObject({
    accountNumber: safeText().trim().min(1, "Account number is required").max(32),
    amountSen: positiveSen,
    channel: z.literal("counter"),
    remark: safeMultilineText().trim().max(500).optional(),
  })
  .meta({ id: "CounterTopUpBody" });
export type CounterTopUpBody = z.infer<typeof counterTopUpBody>;

/** Whose account a counter top-up would credit, shown before staff confirm it. */
// A query string's schema is inlined in the document, never a named component.
export const accountHolderQuery = z.strictObject({
  accountNumber: counterTopUpBody.shape.accountNumber,
});
export const accountHolderAnswer = z
  .object({
    accountNumber: z.string(),
    name: z.string(),
    role: z.enum(USER_ROLES),
    approvalStatus: z.enum(APPROVAL_STATUSES),
    isBanned: z.boolean(),
    walletStatus: z.enum(WALLET_STATUSES),
    balanceSen: z.int().describe("The wallet's balance now, in sen"),
  })
  .meta({ id: "AccountHolder" });
export type AccountHolder = z.infer<typeof accountHolderAnswer>;

/**
 * A receipt's number: `RC-` and the reference of the ledger row it receipts (a top-up's `TU…`, its
 * reversal's `RVTU…`), so the same every time it is printed and unique as the reference is.
 */
export const receiptNumberOf = (reference: string) => `RC-${reference}`;

/** The receipt PDF's language: the console's; an unknown tag falls back to the admin's. */
export const receiptQuery = z.strictObject({ lang: z.string().max(35).optional() });

/** What e-mailing a receipt answers: its number, the holder's address and the mail's language. */
export const receiptSentAnswer = z
  .object({
    receiptNumber: z.string(),
    email: z.string(),
    language: z.enum(ADMIN_LANGUAGES),
  })
  .meta({ id: "TopUpReceiptSent" });
export type ReceiptSentAnswer = z.infer<typeof receiptSentAnswer>;

/** Only a counter top-up has a receipt; only a reversed top-up has its reversal's. */
const RECEIPT_RULES = {
  conflictCode: "NO_RECEIPT",
  audit: "top_up",
  answer: { status: 202, response: receiptSentAnswer, failures: [502] },
} as const;

const CHANNEL_TAGS = { fpx: "blue", card: "purple", agent: "cyan", counter: "orange" } as const;
/** A ledger row's status as a tag: one colour scheme for every list of ledger rows. */
export const LEDGER_STATUS_TAGS = {
  pending: "gold",
  success: "green",
  failed: "red",
  reversed: "grey",
} as const;

/**
 * The first fields of a list of ledger rows on a detail page (a business's payments, a settlement's
 * items): the row's id, when it was made and its reference.
 */
export const ledgerRowHead = () => ({
  id: recordId({ filter: false }),
  createdAt: instant({ list: 160, show: false, export: false }),
  reference: field(z.string(), { list: { width: 190 } }),
});

/** A ledger row's amount in sen, in such a list: a sortable column. */
export const ledgerRowAmount = () =>
  field(z.number().int(), { list: { width: 110 }, sort: true, display: { kind: "money" } });

/** A ledger row's status, in such a list: a tag, and a filter when `filter`. */
export const ledgerRowStatus = (filter = false) =>
  field(z.enum(LEDGER_STATUSES), {
    list: { width: 110 },
    ...(filter ? { filter: "choice" as const } : {}),
    display: { kind: "tag", colours: LEDGER_STATUS_TAGS },
  });

/** Top Up Transaction (33): money into wallets, by FPX, card, agent or at the counter. */
export const topUps = defineModule({
  name: "top-up-transactions",
  permission: PERMISSION.topUp,
  thing: { one: "Top Up Transaction", many: "Top Up Transactions" },
  i18n: "topUp",
  schemaId: "TopUpTransaction",
  paths: {
    list: "/top-up-transaction",
    show: "/top-up-transaction",
    create: "/top-up-transaction/create",
  },
  fields: {
    id: recordId(),
    reference: selfLink({ list: 190 }),
    ...userLink({ name: { list: 170 } }),
    amountSen: money({ list: 120, filter: true, sort: true }),
    balanceAfterSen: money({ export: false }),
    channel: choice(z.enum(LEDGER_CHANNELS), { list: 110, sort: false, colours: CHANNEL_TAGS }),
    status: choice(z.enum(LEDGER_STATUSES), { list: 110, colours: LEDGER_STATUS_TAGS }),
    agentUserId: field(z.number().int().nullable(), { filter: "numberRange" }),
    agentName: text({
      nullable: true,
      export: false,
      display: { kind: "link", to: "users", idField: "agentUserId" },
    }),
    ...administratorLink("adminId", "adminName"),
    remark: text({ nullable: true }),
    reversalReference: text({ nullable: true }),
    reversalRemark: text({ nullable: true, export: false }),
    createdAt: instant({ list: 160 }),
  },
  titleField: "reference",
  defaultSort: NEWEST_FIRST,
  actions: {
    reverse: remarkAction({
      verb: "reverse",
      done: "reversed",
      when: { status: ["success"] },
      conflictCode: "ALREADY_REVERSED",
      danger: true,
      audit: "top_up",
      // Money back out of a wallet: always a second approver.
      fourEyes: { amount: { record: "amountSen" } },
      stepUp: true,
    }),
    /**
     * E-mails a counter top-up's receipt to its holder, in the holder's language: 202 once sent,
     * 409 HOLDER_NO_EMAIL without an address, 502 MAIL_FAILED. Audited `top_up.email_receipt`.
     */
    emailReceipt: effectAction({
      verb: "email_receipt",
      done: "receiptSent",
      path: "email-receipt",
      when: { channel: ["counter"], status: ["success", "reversed"] },
      thing: "E-mail Top Up Receipt",
      ...RECEIPT_RULES,
    }),
    /** The same for the receipt of a top-up's reversal. Audited `top_up.email_reversal_receipt`. */
    emailReversalReceipt: effectAction({
      verb: "email_reversal_receipt",
      done: "reversalReceiptSent",
      path: "email-reversal-receipt",
      when: { status: ["reversed"] },
      thing: "E-mail Top Up Reversal Receipt",
      ...RECEIPT_RULES,
    }),
  },
  create: form({
    body: counterTopUpBody,
    audit: "top_up",
    inputs: { amountSen: { kind: "money" }, remark: { kind: "multiline" } },
    // Above the wallet policy's threshold (RM 200 unless a version says otherwise).
    fourEyes: { above: "topUp", amount: { body: "amountSen" } },
    stepUp: true,
  }),
});

export type TopUpTransactionDto = ItemOf<typeof topUps>;
