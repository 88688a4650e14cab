/**
 * User Report (docs/modules.md): what app users report, handled by staff holding
 * code 37 through assign, start, resolve (note; a dispute may be refunded, above the refund
 * threshold after a second approver: docs/four-eyes.md) and reject (note), and reopened. A step
 * that does not apply to the report's status is refused (409).
 */
import { eq, sql } from "drizzle-orm";

import type { RemarkBody } from "../../../src/shared/kit/module";
import { userReports as userReportsDecl } from "../../../src/shared/modules/user-reports";
import type { Tx } from "../../db";
import {
  administrators,
  businesses,
  userReports,
  users,
  walletTransactions,
} from "../../db/schema";
import { adminNameOf, bindModule, type ActionContext } from "../../kit/bind";
import { reportReferenceOf } from "../../services/record-numbers";
import { userReportEndpoints } from "./endpoints";
import { resolveReport } from "./rules";

const payment = (column: "reference" | "amount_sen") =>
  sql`(select ${sql.identifier(column)} from ${walletTransactions} p
    where p.id = ${userReports.paymentId})`;

/** What remains refundable of the disputed payment: its amount less its successful refunds. */
const refundableSen = sql<number | null>`(select -p.amount_sen - coalesce((
    select sum(r.amount_sen) from ${walletTransactions} r
    where r.reverses_id = p.id and r.type = 'refund' and r.status = 'success'), 0)
  from ${walletTransactions} p where p.id = ${userReports.paymentId} and p.status = 'success')`;

const refund = (column: "reference" | "amount_sen") =>
  sql`(select ${sql.identifier(column)} from ${walletTransactions} r
    where r.id = ${userReports.refundId})`;

async function reject(tx: Tx, { actor, id, body }: ActionContext<{ note: string }>) {
  await tx
    .update(userReports)
    .set({ status: "rejected", note: body.note, closedAt: new Date(), closedBy: actor.id })
    .where(eq(userReports.id, id));
}

/** Back to open: the note and the closing are cleared (the history keeps them); a refund stays. */
async function reopen(tx: Tx, { id }: ActionContext<RemarkBody>) {
  await tx
    .update(userReports)
    .set({ status: "open", note: null, closedAt: null, closedBy: null })
    .where(eq(userReports.id, id));
}

export const userReportsModule = bindModule(userReportsDecl, {
  table: userReports,
  joins: [{ table: users, on: eq(users.id, userReports.reporterId), exactlyOne: true }],
  columns: {
    reference: reportReferenceOf(userReports),
    reporterAccountNumber: users.accountNumber,
    reporterName: users.name,
    paymentReference: payment("reference"),
    paymentAmountSen: sql<number | null>`-${payment("amount_sen")}`.mapWith(Number),
    refundableSen: refundableSen.mapWith(Number),
    businessName: sql<string | null>`(select ${businesses.name} from ${businesses}
      where ${businesses.id} = ${userReports.businessId})`,
    assigneeName: adminNameOf(userReports.assigneeId),
    refundSen: refund("amount_sen").mapWith(Number),
    refundReference: refund("reference"),
    closedByName: adminNameOf(userReports.closedBy),
  },
  options: {
    assigneeId: { table: administrators, value: administrators.id, label: administrators.name },
  },
  actions: { reject, reopen, resolve: resolveReport },
  endpoints: userReportEndpoints,
});
