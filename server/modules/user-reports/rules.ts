/**
 * User Report's rules: the workflow's steps beside the kit's actions (assign and start, each
 * through the kit's changeRecord, 409 when it does not apply), and the declared action resolve's
 * handler (a note; a dispute may be refunded, above the refund threshold after a second approver).
 */
import { and, eq, sql } from "drizzle-orm";

import {
  REPORT_STEPS,
  REPORT_TRANSITION,
  type AssignReportBody,
  type ResolveReportBody,
} from "../../../src/shared/modules/user-reports";
import { PERMISSION } from "../../../src/shared/permissions";
import type { Db, DbOrTx, Tx } from "../../db";
import { administrators, userReports, type AdministratorRow } from "../../db/schema";
import { HttpError } from "../../errors";
import type { ActionContext, BoundModule } from "../../kit/bind";
import { changeRecord } from "../../kit/change";
import type { RequestedVersion } from "../../kit/versions";
import { refundPayment } from "../../services/ledger";

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

type Step = "assign" | "start";

/** One step of the workflow through the kit's change: locked, guarded (409), audited. */
interface StepContext<Body> {
  actorId: number;
  id: number;
  body: Body;
  before: Record<string, unknown>;
}

function step<Body>(
  db: Db,
  bound: BoundModule,
  name: Step,
  rules: (tx: Tx, context: StepContext<Body>) => Promise<void>,
) {
  return (actor: AdministratorRow, id: number, body: Body, versioned?: RequestedVersion) =>
    db.transaction((tx) =>
      changeRecord(
        tx,
        bound,
        {
          actor,
          id,
          when: { status: REPORT_STEPS[name] },
          conflictCode: REPORT_TRANSITION,
          audit: `user_report.${name}`,
          // Neither step takes a note: the audit entry has no remark.
          remark: null,
          ...versioned,
        },
        (before) => rules(tx, { actorId: actor.id, id, body, before }),
      ),
    );
}

/**
 * Resolves a report (the declared action `resolve`, run by the kit: locked, guarded, audited as
 * `user_report.resolve` with the note as its remark): the note, and for a transaction dispute
 * with a payment, an optional refund of it as a `refund` ledger row in the same transaction (at
 * most what remains of it: 409 REFUND_EXCEEDS_PAYMENT). Under four eyes the kit runs it on the
 * maker's behalf once approved (the refund row then names the maker; the audit, the checker too).
 */
export async function resolveReport(
  tx: Tx,
  { actor, id, body, before }: ActionContext<ResolveReportBody>,
) {
  const actorId = actor.id;
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

/** The workflow's steps staff take on a report beside the declared actions: assign and start. */
export function reportSteps(db: Db, bound: BoundModule) {
  return {
    assign: step<AssignReportBody>(db, bound, "assign", async (tx, { id, body }) => {
      await tx
        .update(userReports)
        .set({ assigneeId: await assignee(tx, body.assigneeId) })
        .where(eq(userReports.id, id));
    }),
    start: step<Record<string, never>>(db, bound, "start", async (tx, { actorId, id, before }) => {
      await tx
        .update(userReports)
        .set({ status: "in_progress", assigneeId: Number(before.assigneeId ?? actorId) })
        .where(eq(userReports.id, id));
    }),
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
