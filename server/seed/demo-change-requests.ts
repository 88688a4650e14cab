/**
 * The demo campus's four eyes (docs/four-eyes.md): change requests in every state, so Pending
 * approvals is not empty on first start. The pending ones can really be approved (the records
 * and wallets they name are as their previews say); the decided ones point at records that are
 * as their decision left them (a paid settlement, a staff member's permissions).
 */
import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";

import type { Tx } from "../db";
import {
  administrators,
  changeRequests,
  settlements,
  users,
  walletPolicies,
  wallets,
  walletTransactions,
} from "../db/schema";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The demo logins four eyes needs, by their e-mail: the makers and the checkers. */
export interface FourEyesStaff {
  superAdmin: string;
  finance: string;
  approver: string;
  checker: string;
}

type Request = typeof changeRequests.$inferInsert;

/** A settlement's invoice number, as its module reads it (server/modules/settlements). */
const invoiceNumberOf = (row: { id: number; periodEnd: string }) =>
  `INV-${row.periodEnd.slice(0, 7).replace("-", "")}-${String(row.id).padStart(6, "0")}`;

const reference = (at: number, tail: string) =>
  `CR${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}${tail}`;

export async function seedDemoChangeRequests(
  tx: Tx,
  emails: FourEyesStaff,
  now: number,
): Promise<number> {
  const staff = await tx
    .select({ id: administrators.id, email: administrators.email, name: administrators.name })
    .from(administrators);
  const idOf = (email: string) => staff.find((row) => row.email === email)?.id;
  const superAdmin = idOf(emails.superAdmin);
  const finance = idOf(emails.finance);
  const approver = idOf(emails.approver);
  const checker = idOf(emails.checker);
  if (!superAdmin || !finance || !approver || !checker) return 0;
  const rows: Request[] = [];
  const at = (ago: number, hours = 24) => ({
    createdAt: new Date(now - ago),
    updatedAt: new Date(now - ago),
    expiresAt: new Date(now - ago + hours * HOUR),
  });
  const decided = (
    ago: number,
    by: number | null,
    status: Request["status"],
    remark: string | null,
  ) => ({
    status,
    checkerId: by,
    remark,
    decidedAt: new Date(now - ago),
  });

  // Pending: a counter top-up of RM 350 for a student whose wallet has room for it.
  const [student] = await tx
    .select({ id: users.id, accountNumber: users.accountNumber, name: users.name })
    .from(users)
    .innerJoin(wallets, eq(wallets.userId, users.id))
    .where(
      and(
        eq(wallets.status, "active"),
        eq(users.role, "student"),
        sql`${wallets.balanceSen} < 30000`,
      ),
    )
    .orderBy(asc(users.id))
    .limit(1);
  if (student) {
    rows.push({
      reference: reference(now - 40 * 60_000, "DEMOTOPUP1"),
      module: "top-up-transactions",
      action: "create",
      verb: "create",
      recordTitle: null,
      body: { accountNumber: student.accountNumber, amountSen: 35_000, channel: "counter" },
      reason: "Cash RM 350 paid at the Finance counter, receipt 004117",
      amountSen: 35_000,
      before: null,
      after: {
        accountNumber: student.accountNumber,
        userName: student.name,
        amountSen: 35_000,
        channel: "counter",
        status: "success",
        adminName: "Finance",
      },
      permission: 33,
      rule: "above",
      thresholdSen: 20_000,
      makerId: finance,
      ...at(40 * 60_000),
    });
    // Withdrawn two days ago: the maker typed the wrong account.
    rows.push({
      reference: reference(now - 2 * DAY, "DEMOTOPUP2"),
      module: "top-up-transactions",
      action: "create",
      verb: "create",
      body: { accountNumber: student.accountNumber, amountSen: 25_000, channel: "counter" },
      reason: "Cash RM 250 paid at the Finance counter",
      amountSen: 25_000,
      after: { accountNumber: student.accountNumber, userName: student.name, amountSen: 25_000 },
      permission: 33,
      rule: "above",
      thresholdSen: 20_000,
      makerId: finance,
      ...at(2 * DAY),
      ...decided(2 * DAY - 10 * 60_000, null, "withdrawn", "Wrong account number: keyed again"),
    });
  }

  // Pending: a reversal of a recent counter top-up whose money is still in the wallet.
  const [topUp] = await tx
    .select({
      id: walletTransactions.id,
      reference: walletTransactions.reference,
      amountSen: walletTransactions.amountSen,
      userName: users.name,
    })
    .from(walletTransactions)
    .innerJoin(wallets, eq(wallets.userId, walletTransactions.userId))
    .innerJoin(users, eq(users.id, walletTransactions.userId))
    .where(
      and(
        eq(walletTransactions.type, "top_up"),
        eq(walletTransactions.channel, "counter"),
        eq(walletTransactions.status, "success"),
        gte(walletTransactions.createdAt, new Date(now - 3 * DAY)),
        sql`${wallets.balanceSen} >= ${walletTransactions.amountSen}`,
      ),
    )
    .orderBy(desc(walletTransactions.id))
    .limit(1);
  if (topUp) {
    const remark = "Keyed twice: the student paid once";
    rows.push({
      reference: reference(now - 3 * HOUR, "DEMOREVERS"),
      module: "top-up-transactions",
      action: "reverse",
      verb: "reverse",
      recordId: topUp.id,
      recordTitle: topUp.reference,
      body: { remark },
      reason: remark,
      amountSen: topUp.amountSen,
      before: { status: "success", reversalReference: null, reversalRemark: null },
      after: {
        status: "reversed",
        reversalReference: `RV${topUp.reference}`,
        reversalRemark: remark,
      },
      permission: 33,
      rule: "always",
      makerId: finance,
      ...at(3 * HOUR),
    });
  }

  // Approved a while ago: a settlement marked paid (its bank reference as the bank gave it);
  // rejected: one whose reference did not match the statement (it is still to be paid).
  const [paid] = await tx
    .select()
    .from(settlements)
    .where(eq(settlements.status, "paid"))
    .orderBy(desc(settlements.id))
    .limit(1);
  if (paid?.paidAt) {
    const paidAt = paid.paidAt.getTime();
    rows.push({
      reference: reference(paidAt - 2 * HOUR, "DEMOPAID01"),
      module: "settlements",
      action: "markPaid",
      verb: "mark-paid",
      recordId: paid.id,
      recordTitle: invoiceNumberOf(paid),
      body: { bankReference: paid.bankReference },
      reason: "Transfer confirmed on the bank statement",
      amountSen: paid.netSen,
      before: { status: "pending", bankReference: null, paidAt: null },
      after: {
        status: "paid",
        bankReference: paid.bankReference,
        paidAt: paid.paidAt.toISOString(),
      },
      permission: 35,
      rule: "always",
      makerId: finance,
      createdAt: new Date(paidAt - 2 * HOUR),
      updatedAt: new Date(paidAt),
      expiresAt: new Date(paidAt + 22 * HOUR),
      ...decided(now - paidAt, checker, "approved", "Matches the statement"),
      resultId: paid.id,
    });
  }
  const [unpaid] = await tx
    .select()
    .from(settlements)
    .where(eq(settlements.status, "pending"))
    .orderBy(asc(settlements.id))
    .limit(1);
  if (unpaid) {
    rows.push({
      reference: reference(now - DAY, "DEMOPAID02"),
      module: "settlements",
      action: "markPaid",
      verb: "mark-paid",
      recordId: unpaid.id,
      recordTitle: invoiceNumberOf(unpaid),
      body: { bankReference: "MBB-TRF-88120" },
      reason: "Paid in this morning's batch",
      amountSen: unpaid.netSen,
      before: { status: "pending", bankReference: null, paidAt: null },
      after: { status: "paid", bankReference: "MBB-TRF-88120" },
      permission: 35,
      rule: "always",
      makerId: finance,
      ...at(DAY),
      ...decided(DAY - 45 * 60_000, checker, "rejected", "The reference is not on the statement"),
    });
  }

  // Pending: a permission change of a staff member; approved earlier: another one's.
  const people = await tx
    .select({
      id: administrators.id,
      name: administrators.name,
      permissions: administrators.permissions,
    })
    .from(administrators)
    .where(
      inArray(administrators.email, ["aisyah.rahman@wallet.example", "meera.nair@wallet.example"]),
    )
    .orderBy(asc(administrators.email));
  const [aisyah, meera] = people;
  if (aisyah) {
    const permissions = [...aisyah.permissions, 37];
    rows.push({
      reference: reference(now - 5 * HOUR, "DEMOPERMS1"),
      module: "administrators",
      action: "permissions",
      verb: "change_permissions",
      recordId: aisyah.id,
      recordTitle: aisyah.name,
      body: { permissions },
      reason: "Joins the user-report rota from Monday",
      before: { permissions: aisyah.permissions },
      after: { permissions },
      permission: 8,
      rule: "always",
      makerId: superAdmin,
      ...at(5 * HOUR),
    });
  }
  if (meera) {
    rows.push({
      reference: reference(now - 12 * DAY, "DEMOPERMS2"),
      module: "administrators",
      action: "permissions",
      verb: "change_permissions",
      recordId: meera.id,
      recordTitle: meera.name,
      body: { permissions: meera.permissions },
      reason: "Takes over the merchant announcements",
      before: { permissions: meera.permissions.filter((code) => code !== 16) },
      after: { permissions: meera.permissions },
      permission: 8,
      rule: "always",
      makerId: superAdmin,
      ...at(12 * DAY),
      ...decided(12 * DAY - 2 * HOUR, approver, "approved", "Agreed with her manager"),
      resultId: meera.id,
    });
  }

  // Expired: a new wallet policy nobody approved in time.
  const [policy] = await tx.select().from(walletPolicies).orderBy(desc(walletPolicies.id)).limit(1);
  if (policy) {
    const body = {
      minTopUpSen: policy.minTopUpSen,
      maxTopUpSen: policy.maxTopUpSen,
      dailyTopUpLimitSen: policy.dailyTopUpLimitSen,
      maxBalanceSen: policy.maxBalanceSen,
      dailyPaymentLimitSen: policy.dailyPaymentLimitSen,
      dormancyDays: 180,
      remark: "Dormant after six months",
    };
    rows.push({
      reference: reference(now - 4 * DAY, "DEMOPOLICY"),
      module: "wallet-policies",
      action: "create",
      verb: "create",
      body,
      reason: "Dormant after six months",
      after: body,
      permission: 24,
      rule: "always",
      makerId: superAdmin,
      ...at(4 * DAY),
      ...decided(3 * DAY, null, "expired", null),
    });
  }
  // Rejected: maintenance during exam week; nothing changed. Approved weeks ago: the finance
  // checker's own account, made by the super administrator and approved by the second one.
  rows.push({
    reference: reference(now - 2 * DAY, "DEMOGLOBAL"),
    module: "global-settings",
    action: "update",
    verb: "update",
    body: {
      maintenanceEnabled: true,
      maintenanceMessageEn: "The wallet is down for maintenance until 6 am.",
      maintenanceMessageZh: "钱包维护中，早上 6 点恢复。",
    },
    reason: "Database upgrade tonight",
    before: { maintenanceEnabled: false, maintenanceMessageEn: "", maintenanceMessageZh: "" },
    after: {
      maintenanceEnabled: true,
      maintenanceMessageEn: "The wallet is down for maintenance until 6 am.",
      maintenanceMessageZh: "钱包维护中，早上 6 点恢复。",
    },
    permission: 20,
    rule: "always",
    makerId: superAdmin,
    ...at(2 * DAY),
    ...decided(2 * DAY - 3 * HOUR, approver, "rejected", "Exam week: move it to Saturday"),
  });
  const [checkerRow] = await tx.select().from(administrators).where(eq(administrators.id, checker));
  if (checkerRow) {
    const account = {
      name: checkerRow.name,
      email: checkerRow.email,
      permissions: checkerRow.permissions,
    };
    rows.push({
      reference: reference(now - 20 * DAY, "DEMOADMIN1"),
      module: "administrators",
      action: "create",
      verb: "create",
      recordId: checker,
      recordTitle: checkerRow.name,
      // What a request keeps of a new account: never its password (ModuleBinding.heldBody).
      body: { ...account, passwordHash: checkerRow.passwordHash },
      reason: "Finance needs its own checker for top-ups and refunds",
      after: account,
      permission: 8,
      rule: "always",
      makerId: superAdmin,
      ...at(20 * DAY),
      ...decided(20 * DAY - HOUR, approver, "approved", "Confirmed with the finance manager"),
      resultId: checker,
    });
  }
  if (rows.length > 0) await tx.insert(changeRequests).values(rows);
  return rows.length;
}
