/**
 * User Report (docs/modules.md): what app users report, handled by staff holding
 * code 37 through assign, start, resolve (note; a dispute may be refunded) and reject (note),
 * and reopened. A step that does not apply to the report's status is refused (409).
 */
import { and, eq, sql } from "drizzle-orm";

import type { RemarkBody } from "../../src/shared/kit/module";
import {
  REPORT_STEPS,
  REPORT_TRANSITION,
  userReports as userReportsDecl,
  type AssignReportBody,
  type ResolveReportBody,
} from "../../src/shared/modules/user-reports";
import { PERMISSION } from "../../src/shared/permissions";
import type { Db, DbOrTx, Tx } from "../db";
import {
  administrators,
  businesses,
  userReports,
  users,
  walletTransactions,
  type AdministratorRow,
} from "../db/schema";
import { HttpError } from "../errors";
import { adminNameOf, bindModule, changeRecord, type ActionContext } from "../kit/bind";
import { refundPayment } from "./ledger";

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
    reference: sql<string>`'RPT-' || lpad(${userReports.id}::text, 6, '0')`,
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
  actions: { reject, reopen },
});

/** Active administrators who may handle reports: holders of code 37 and super administrators. */
const mayHandle = sql`${administrators.status} = 'active' and (${administrators.isSuperAdmin}
  or ${PERMISSION.report} = any(${administrators.permissions}))`;

async function assignee(db: DbOrTx, id: number) {
  const [admin] = await db
    .select({ id: administrators.id })
    .from(administrators)
    .where(and(eq(administrators.id, id), mayHandle));
  if (!admin) {
    throw new HttpError(
      400,
      "The assignee must be an active administrator holding User Report",
      "ASSIGNEE_NOT_ALLOWED",
    );
  }
  return admin.id;
}

type Step = keyof typeof REPORT_STEPS;

/** One step of the workflow through the kit's change: locked, guarded (409), audited. */
interface StepContext<Body> {
  actorId: number;
  id: number;
  body: Body;
  before: Record<string, unknown>;
}

function step<Body>(
  db: Db,
  name: Step,
  rules: (tx: Tx, context: StepContext<Body>) => Promise<void>,
) {
  return (actor: AdministratorRow, id: number, body: Body) =>
    db.transaction((tx) =>
      changeRecord(
        tx,
        userReportsModule,
        {
          actor,
          id,
          when: { status: REPORT_STEPS[name] },
          conflictCode: REPORT_TRANSITION,
          audit: `user_report.${name}`,
          remark: (body as { note?: string }).note ?? null,
        },
        (before) => rules(tx, { actorId: actor.id, id, body, before }),
      ),
    );
}

/**
 * Resolves a report: the note, and for a transaction dispute with a payment, an optional refund
 * of it as a `refund` ledger row in the same transaction (at most what remains of it: 409
 * REFUND_EXCEEDS_PAYMENT).
 */
async function resolve(tx: Tx, { actorId, id, body, before }: StepContext<ResolveReportBody>) {
  let refundId: number | null = null;
  if (body.refundSen !== undefined) {
    if (before.type !== "transaction_dispute" || before.paymentId === null) {
      throw new HttpError(
        400,
        "Only a transaction dispute about a payment can be refunded",
        "REFUND_NOT_ALLOWED",
      );
    }
    const row = await refundPayment(tx, Number(before.paymentId), {
      amountSen: body.refundSen,
      remark: `${String(before.reference)}: ${body.note}`.slice(0, 500),
      adminId: actorId,
    });
    refundId = row.id;
  }
  await tx
    .update(userReports)
    .set({
      status: "resolved",
      note: body.note,
      closedAt: new Date(),
      closedBy: actorId,
      // A refund given before a reopening stays the report's refund unless a new one is given.
      ...(refundId === null ? {} : { refundId }),
    })
    .where(eq(userReports.id, id));
}

/** The workflow's steps staff take on a report: assign, start and resolve. */
export function reportSteps(db: Db) {
  return {
    assign: step<AssignReportBody>(db, "assign", async (tx, { id, body }) => {
      await tx
        .update(userReports)
        .set({ assigneeId: await assignee(tx, body.assigneeId) })
        .where(eq(userReports.id, id));
    }),
    start: step<Record<string, never>>(db, "start", async (tx, { actorId, id, before }) => {
      await tx
        .update(userReports)
        .set({ status: "in_progress", assigneeId: Number(before.assigneeId ?? actorId) })
        .where(eq(userReports.id, id));
    }),
    resolve: step<ResolveReportBody>(db, "resolve", resolve),
  };
}

/** The administrators a report can be assigned to, by name. */
export async function reportAssignees(db: DbOrTx) {
  return {
    assignees: await db
      .select({ value: administrators.id, label: administrators.name })
      .from(administrators)
      .where(mayHandle)
      .orderBy(administrators.name, administrators.id),
  };
}
