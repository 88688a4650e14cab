/**
 * The step between a sign-in's password and its second factor: a ticket that names the
 * administrator whose password was right, lives 5 minutes, survives 5 wrong codes, and is used
 * once. Only its SHA-256 digest is kept, so the table's rows are of no use to a reader.
 */
import { createHash, randomBytes } from "node:crypto";

import { and, eq, gt, lt, sql } from "drizzle-orm";

import type { DbOrTx } from "../db";
import { loginTickets } from "../db/schema";
import { HttpError } from "../errors";

export const TICKET_MINUTES = 5;
export const TICKET_FAILURES = 5;

const digestOf = (ticket: string) => createHash("sha256").update(ticket).digest("hex");

const expired = () =>
  new HttpError(
    400,
    "This sign-in took too long or had too many wrong codes: sign in again",
    "LOGIN_TICKET_EXPIRED",
  );

export async function newTicket(db: DbOrTx, adminId: number): Promise<string> {
  const ticket = randomBytes(32).toString("base64url");
  // Tickets nobody finished are tidied away by the next sign-in.
  await db.delete(loginTickets).where(lt(loginTickets.expiresAt, sql`now()`));
  await db.insert(loginTickets).values({
    digest: digestOf(ticket),
    adminId,
    expiresAt: new Date(Date.now() + TICKET_MINUTES * 60_000),
  });
  return ticket;
}

/** The administrator a live ticket names; 400 LOGIN_TICKET_EXPIRED for any other ticket. */
export async function ticketHolder(db: DbOrTx, ticket: string): Promise<number> {
  const [row] = await db
    .select({ adminId: loginTickets.adminId })
    .from(loginTickets)
    .where(
      and(
        eq(loginTickets.digest, digestOf(ticket)),
        gt(loginTickets.expiresAt, sql`now()`),
        lt(loginTickets.failures, TICKET_FAILURES),
      ),
    );
  if (!row) throw expired();
  return row.adminId;
}

/** A wrong code on the ticket (the fifth ends it). */
export async function ticketFailed(db: DbOrTx, ticket: string): Promise<void> {
  await db
    .update(loginTickets)
    .set({ failures: sql`${loginTickets.failures} + 1` })
    .where(eq(loginTickets.digest, digestOf(ticket)));
}

/** The sign-in is complete: the ticket goes (a second use of it is refused as expired). */
export async function useTicket(db: DbOrTx, ticket: string): Promise<void> {
  const used = await db
    .delete(loginTickets)
    .where(eq(loginTickets.digest, digestOf(ticket)))
    .returning({ adminId: loginTickets.adminId });
  if (used.length === 0) throw expired();
}
