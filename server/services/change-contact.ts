import { and, eq, ne, sql } from "drizzle-orm";

import {
  compileAggregation,
  countUpToLimit,
  pageWithTotal,
  type CollectionSpec,
  type RawAggregationQuery,
} from "../aggregation";
import { recordAudit } from "../audit";
import type { Db, DbOrTx, Tx } from "../db";
import {
  CONTACT_TYPES,
  SUBMISSION_STATUSES,
  changeContactSubmissions as submissions,
  users,
  type AdministratorRow,
} from "../db/schema";
import { conflict, notFound } from "../errors";
import type { ChangeContactSubmissionDto } from "../schemas/change-contact";
import type { DecisionBody } from "../schemas/user-actions";
import { lockUser, userAuditSnapshot } from "./user-actions";

/**
 * The submissions list joins the user, so `$search` also finds a submission by the user's name or
 * account number (and by the old or new value).
 */
export const changeContactCollection: CollectionSpec = {
  queryName: "changeContactSubmissions",
  fields: {
    id: { column: submissions.id, type: "number", filterable: true, sortable: true },
    userId: { column: submissions.userId, type: "number", filterable: true },
    status: {
      column: submissions.status,
      type: "enum",
      values: SUBMISSION_STATUSES,
      filterable: true,
      sortable: true,
    },
    contactType: {
      column: submissions.contactType,
      type: "enum",
      values: CONTACT_TYPES,
      filterable: true,
      sortable: true,
    },
    oldValue: { column: submissions.oldValue, type: "string", filterable: true, searchable: true },
    newValue: { column: submissions.newValue, type: "string", filterable: true, searchable: true },
    userName: {
      column: users.name,
      type: "string",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    accountNumber: {
      column: users.accountNumber,
      type: "string",
      filterable: true,
      searchable: true,
    },
    createdAt: { column: submissions.createdAt, type: "date", filterable: true, sortable: true },
    reviewedAt: { column: submissions.reviewedAt, type: "date", filterable: true, sortable: true },
  },
  defaultSort: [
    ["createdAt", -1],
    ["id", -1],
  ],
  tieBreaker: submissions.id,
};

type SubmissionRow = typeof submissions.$inferSelect;

function toDto(
  row: SubmissionRow,
  user: { name: string; accountNumber: string },
): ChangeContactSubmissionDto {
  return {
    id: row.id,
    userId: row.userId,
    userName: user.name,
    accountNumber: user.accountNumber,
    contactType: row.contactType,
    oldValue: row.oldValue,
    newValue: row.newValue,
    status: row.status,
    remark: row.remark,
    reviewerId: row.reviewerId,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const userColumns = { name: users.name, accountNumber: users.accountNumber };

/** One page of submissions under the aggregation contract. */
export async function listChangeContactSubmissions(db: DbOrTx, raw: RawAggregationQuery) {
  const query = compileAggregation(changeContactCollection, raw);
  const { rows, ...total } = await pageWithTotal(
    query,
    () =>
      db
        .select({ submission: submissions, user: userColumns })
        .from(submissions)
        .innerJoin(users, eq(users.id, submissions.userId))
        .where(query.where)
        .orderBy(...query.orderBy)
        .limit(query.limit)
        .offset(query.offset),
    () =>
      countUpToLimit(
        db,
        db
          .select({ one: sql`1` })
          .from(submissions)
          .innerJoin(users, eq(users.id, submissions.userId))
          .where(query.where)
          .$dynamic(),
      ),
  );
  return {
    ...total,
    changeContactSubmissions: rows.map((row) => toDto(row.submission, row.user)),
  };
}

/** Approved e-mail changes are checked for uniqueness one at a time (users.email has no unique key). */
const USER_EMAIL_LOCK_KEY = 7_351_004_301;

async function assertEmailFree(tx: Tx, email: string, userId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${USER_EMAIL_LOCK_KEY}::bigint)`);
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, userId)))
    .limit(1);
  if (other) {
    throw conflict("EMAIL_TAKEN", `The e-mail ${email} is already used by another user`);
  }
}

/**
 * Decides a pending submission. Approving also sets the user's e-mail or phone, in the same
 * transaction, with an audit entry on the submission and one on the user (their history panel).
 */
export async function decideChangeContact(
  db: Db,
  actor: AdministratorRow,
  id: number,
  { action, remark }: DecisionBody,
): Promise<ChangeContactSubmissionDto> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(submissions)
      .where(eq(submissions.id, id))
      .for("update");
    if (!current) throw notFound("Change contact submission");
    if (current.status !== "pending") {
      throw conflict("ALREADY_DECIDED", `This submission was already ${current.status}`, {
        status: current.status,
      });
    }
    const user = await lockUser(tx, { id: current.userId });
    if (action === "approve") {
      if (current.contactType === "email") await assertEmailFree(tx, current.newValue, user.id);
      const set =
        current.contactType === "email" ? { email: current.newValue } : { phone: current.newValue };
      const [changed] = await tx.update(users).set(set).where(eq(users.id, user.id)).returning();
      if (!changed) throw notFound("User");
      await recordAudit(tx, {
        adminId: actor.id,
        action: "user.change_contact",
        targetTable: "users",
        targetId: user.id,
        remark,
        before: userAuditSnapshot(user),
        after: userAuditSnapshot(changed),
      });
    }
    const [decided] = await tx
      .update(submissions)
      .set({
        status: action === "approve" ? "approved" : "rejected",
        remark,
        reviewerId: actor.id,
        reviewedAt: new Date(),
      })
      .where(eq(submissions.id, id))
      .returning();
    if (!decided) throw notFound("Change contact submission");
    const snapshot = (row: SubmissionRow) => ({
      userId: row.userId,
      contactType: row.contactType,
      oldValue: row.oldValue,
      newValue: row.newValue,
      status: row.status,
      remark: row.remark,
    });
    await recordAudit(tx, {
      adminId: actor.id,
      action: `change_contact.${action}`,
      targetTable: "change_contact_submissions",
      targetId: id,
      remark,
      before: snapshot(current),
      after: snapshot(decided),
    });
    return toDto(decided, user);
  });
}
