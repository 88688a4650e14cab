import { createHash, randomBytes } from "node:crypto";

import { and, eq, isNull, sql } from "drizzle-orm";

import { recordAudit } from "../audit";
import { assertStrongPassword, hashPassword } from "../auth/password";
import type { Db, DbOrTx, Tx } from "../db";
import {
  administratorPasswordResets,
  administrators,
  userPasswordResets,
  users,
  type AdministratorRow,
  type UserRow,
} from "../db/schema";
import { HttpError } from "../errors";
import type { ActionBinding } from "../kit/bind";
import { sendResetLink, type ResetAudience } from "../mail/password-reset-email";

/**
 * E-mailed password reset links, for wallet users (issued here) and administrators
 * (admin-password-reset.ts): a token with 256 random bits, of which only the SHA-256 is stored,
 * valid one hour and once; only the newest link of a person works.
 */

/** How long an e-mailed reset link works. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The stored form of a token: its SHA-256 (the token itself has 256 random bits, no salt needed). */
export const hashResetToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new link's token (returned once, to be e-mailed), its stored hash and its expiry. */
export function newResetToken(now: Date) {
  const token = randomBytes(32).toString("base64url");
  return {
    token,
    tokenHash: hashResetToken(token),
    expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
  };
}

export const RESET_LINK_ERRORS = {
  invalid: () => new HttpError(404, "This password reset link is not valid", "RESET_LINK_INVALID"),
  expired: () => new HttpError(410, "This password reset link has expired", "RESET_LINK_EXPIRED"),
  used: () =>
    new HttpError(
      410,
      "This password reset link was used already, or a newer one replaced it",
      "RESET_LINK_USED",
    ),
};

/**
 * `found` (a link's row, with whatever was joined to it) when its link, `linkOf(found)`, can still
 * be used at `now`; refused when it is unknown, spent (used or replaced) or expired.
 */
export function usableLink<T>(
  found: T | undefined,
  linkOf: (found: T) => { usedAt: Date | null; expiresAt: Date },
  now: Date,
): T {
  if (found === undefined) throw RESET_LINK_ERRORS.invalid();
  const link = linkOf(found);
  if (link.usedAt) throw RESET_LINK_ERRORS.used();
  if (link.expiresAt.getTime() <= now.getTime()) throw RESET_LINK_ERRORS.expired();
  return found;
}

/** A stored link, as its checks and its use see it. */
interface LinkRow {
  id: number;
  expiresAt: Date;
  usedAt: Date | null;
  requestedBy: number | null;
}

/**
 * Where one kind of person's links are kept (wallet users', administrators'), whose passwords they
 * set, and what the audit trail calls issuing and using one.
 */
export interface ResetLinkStore<Person> {
  links: typeof userPasswordResets | typeof administratorPasswordResets;
  /** The links' column naming their person. */
  owner: typeof userPasswordResets.userId | typeof administratorPasswordResets.administratorId;
  /** The people's table, whose rows are `Person`s. */
  people: (typeof users | typeof administrators) & { $inferSelect: Person };
  /** Stores a new link of person `ownerId`. */
  insert(
    tx: Tx,
    ownerId: number,
    link: Omit<LinkRow, "id" | "usedAt"> & { tokenHash: string },
  ): Promise<unknown>;
  targetTable: "users" | "administrators";
  issued: string;
  completed: string;
}

export const USER_RESET_LINKS: ResetLinkStore<UserRow> = {
  links: userPasswordResets,
  owner: userPasswordResets.userId,
  people: users,
  insert: (tx, userId, link) => tx.insert(userPasswordResets).values({ userId, ...link }),
  targetTable: "users",
  issued: "user.reset_password",
  completed: "user.password_reset_completed",
};

export const ADMINISTRATOR_RESET_LINKS: ResetLinkStore<AdministratorRow> = {
  links: administratorPasswordResets,
  owner: administratorPasswordResets.administratorId,
  people: administrators,
  insert: (tx, administratorId, link) =>
    tx.insert(administratorPasswordResets).values({ administratorId, ...link }),
  targetTable: "administrators",
  issued: "administrator.reset_password",
  completed: "administrator.password_reset_completed",
};

/** A new link's token and expiry. */
export interface IssuedLink {
  /** Returned once, to be e-mailed to the person; never stored or logged. */
  token: string;
  expiresAt: Date;
}

/**
 * Issues a new link of `store`'s person `personId` on `actor`'s request, in the caller's
 * transaction (the person locked by it): their earlier unused links are retired (marked used now),
 * so only the newest works. The person's password and sessions are untouched until it is used.
 * Answers the token, given once (to be e-mailed; never stored or logged), and its expiry.
 */
export async function issueResetLink<Person>(
  tx: Tx,
  store: ResetLinkStore<Person>,
  personId: number,
  actor: AdministratorRow,
  now = new Date(),
): Promise<IssuedLink> {
  const { token, tokenHash, expiresAt } = newResetToken(now);
  await tx
    .update(store.links)
    .set({ usedAt: now })
    .where(and(eq(store.owner, personId), isNull(store.links.usedAt)));
  await store.insert(tx, personId, { tokenHash, expiresAt, requestedBy: actor.id });
  return { token, expiresAt };
}

/** The link of `token` and its person (locked when `lock`), refused unless usable at `now`. */
async function findUsableLink<Person>(
  db: DbOrTx,
  store: ResetLinkStore<Person>,
  token: string,
  now: Date,
  lock: boolean,
): Promise<{ reset: LinkRow; person: Person }> {
  const query = db
    .select({ reset: store.links, person: store.people })
    .from(store.links)
    .innerJoin(store.people, eq(store.people.id, store.owner))
    .where(eq(store.links.tokenHash, hashResetToken(token)));
  const [found] = (await (lock ? query.for("update") : query)) as {
    reset: LinkRow;
    person: Person;
  }[];
  return usableLink(found, ({ reset }) => reset, now);
}

/**
 * Sets the person's password and spends the link, once: two uses of one link at the same time
 * find it locked, and the second finds it used. The person's credential version moves on, so
 * every session or token issued before stops working. Answers `view` of the person and link.
 */
async function completeReset<Person extends { id: number }, View>(
  db: Db,
  store: ResetLinkStore<Person>,
  token: string,
  password: string,
  now: Date,
  view: (person: Person, reset: LinkRow) => View,
): Promise<View> {
  assertStrongPassword(password);
  // Checked before the costly hash, so a stream of dead links costs no hashing.
  await findUsableLink(db, store, token, now, false);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const { reset, person } = await findUsableLink(tx, store, token, now, true);
    await tx.update(store.links).set({ usedAt: now }).where(eq(store.links.id, reset.id));
    await tx
      .update(store.people)
      .set({ passwordHash, credentialVersion: sql`${store.people.credentialVersion} + 1` })
      .where(eq(store.people.id, person.id));
    await recordAudit(tx, {
      adminId: null,
      action: store.completed,
      targetTable: store.targetTable,
      targetId: person.id,
      after: { resetRequestedBy: reset.requestedBy },
    });
    return view(person, reset);
  });
}

/** What a link's page does with it: `check` whose password it sets (changing nothing), `complete`. */
export interface ResetLinkUses<View> {
  check(db: Db, token: string, now?: Date): Promise<View>;
  complete(db: Db, token: string, password: string, now?: Date): Promise<View>;
}

/** The uses of `store`'s links, each answering `view` of the person and the link. */
export function resetLinkUses<Person extends { id: number }, View>(
  store: ResetLinkStore<Person>,
  view: (person: Person, reset: LinkRow) => View,
): ResetLinkUses<View> {
  return {
    async check(db, token, now = new Date()) {
      const { reset, person } = await findUsableLink(db, store, token, now, false);
      return view(person, reset);
    },
    complete: (db, token, password, now = new Date()) =>
      completeReset(db, store, token, password, now, view),
  };
}

/** A link issued to a person's own address, as the reset action's effect and audit see it. */
interface IssuedTo extends IssuedLink {
  email: string;
  name: string;
}

/**
 * A module's password reset action (a declared `effectAction`): in the kit's transaction, with
 * the record locked, `person` reads whose password it is and refuses when it may not be issued
 * (no address, not theirs to manage); their link is issued (only the newest works) and audited
 * with its address and expiry, never the token. Once committed, the link is e-mailed to the
 * person's own address: 502 MAIL_FAILED when the mail could not be sent (the link stays issued,
 * and the next one replaces it).
 */
export function resetLinkAction<Person>(
  store: ResetLinkStore<Person>,
  audience: ResetAudience,
  person: (tx: Tx, actor: AdministratorRow, id: number) => Promise<{ email: string; name: string }>,
): ActionBinding<unknown, IssuedTo> {
  return {
    run: async (tx, { actor, id }) => {
      const { email, name } = await person(tx, actor, id);
      return { email, name, ...(await issueResetLink(tx, store, id, actor)) };
    },
    audit: ({ email, expiresAt }) => ({ after: { email, expiresAt: expiresAt.toISOString() } }),
    after: ({ email, name, token, expiresAt }, { mailer, config, log }) =>
      sendResetLink(mailer, config.publicUrl, log, { audience, to: email, name, token, expiresAt }),
  };
}
