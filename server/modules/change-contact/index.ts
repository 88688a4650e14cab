import { and, eq, ne, sql } from "drizzle-orm";

import type { DecisionBody } from "../../../src/shared/kit/module";
import { changeContact } from "../../../src/shared/modules/change-contact";
import { recordAudit } from "../../audit";
import type { Tx } from "../../db";
import { changeContactSubmissions as submissions, users } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { bindModule, type ActionContext } from "../../kit/bind";
import { lockUser, userAuditSnapshot } from "../../services/user-actions";

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
 * The rules of a decision on a pending submission (the kit has locked it, checked it is pending
 * and writes its audit entry): approving also sets the user's e-mail or phone, in the same
 * transaction, with an entry on the user for their history panel.
 */
async function decideChangeContact(
  tx: Tx,
  { actor, id, body: { action, remark }, before }: ActionContext<DecisionBody>,
) {
  if (action === "approve") {
    const user = await lockUser(tx, { id: Number(before.userId) });
    const contactType = before.contactType as "email" | "phone";
    const newValue = String(before.newValue);
    if (contactType === "email") await assertEmailFree(tx, newValue, user.id);
    const set = contactType === "email" ? { email: newValue } : { phone: newValue };
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
  await tx
    .update(submissions)
    .set({
      status: action === "approve" ? "approved" : "rejected",
      remark,
      reviewerId: actor.id,
      reviewedAt: new Date(),
    })
    .where(eq(submissions.id, id));
}

/**
 * The submissions list joins the user, so `$search` also finds a submission by the user's name or
 * account number (and by the old or new value).
 */
export const changeContactModule = bindModule(changeContact, {
  table: submissions,
  joins: [{ table: users, on: eq(users.id, submissions.userId) }],
  columns: { userName: users.name, accountNumber: users.accountNumber },
  actions: { decide: decideChangeContact },
});
