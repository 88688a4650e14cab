import { eq } from "drizzle-orm";

import { listAudit } from "../../audit";
import type { DbOrTx } from "../../db";
import { users } from "../../db/schema";
import { notFound } from "../../errors";

/** The audit entries about one user (see listAudit, server/audit.ts). */
export async function listUserAudit(
  db: DbOrTx,
  userId: number,
  page: { page: number; pageSize: number },
) {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("User");
  return listAudit(db, "users", userId, page);
}
