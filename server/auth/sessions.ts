/**
 * Staff sessions, one row per token a sign-in issues (admin_sessions), so that the server, not the
 * browser, decides how long a session lives:
 * - idle: a session unused for `idleMinutes` ends (OWASP ASVS 3.3.2, PCI DSS 8.2.8: 15 minutes);
 * - absolute: the token's own expiry (JWT_TTL, 12 h);
 * - ended: by its holder (logout, or from their list of sessions) or by the super administrator;
 * - step-up: a declared sensitive route needs its holder to have proved who they are within
 *   `stepUpMinutes`, with a second factor when they have one (see requireStepUp).
 * Every instance reads the same rows, so a session ended on one is refused by all of them.
 */
import type { FastifyRequest } from "fastify";
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";

import type { DbOrTx } from "../db";
import {
  administrators,
  adminSessions,
  type AdministratorRow,
  type SessionEndReason,
  type SESSION_PROOFS,
} from "../db/schema";
import { HttpError } from "../errors";
import type { TokenService } from "./tokens";

/** How a session's holder last proved who they are. */
export type Proof = (typeof SESSION_PROOFS)[number];

export interface SessionSettings {
  /** SESSION_IDLE_MINUTES (15). */
  idleMinutes: number;
  /** STEP_UP_MINUTES (5): how recent a proof a sensitive action needs. */
  stepUpMinutes: number;
}

/** What the access check knows of the session behind a request. */
export interface SessionInfo {
  jti: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  verifiedAt: Date;
  verifiedBy: Proof;
  /** Serves only enrolment until a second factor is confirmed (see adminSessions.mustEnrol). */
  mustEnrol: boolean;
}

/**
 * The console says how long its holder has been away (seconds since the last key press or click)
 * on every request, so that its own polling does not keep an unattended session alive. A request
 * without it (an API client) is activity.
 */
export const IDLE_HEADER = "x-idle-seconds";

/** last_seen_at is written at most this often (a busy console would otherwise write on every call). */
export const TOUCH_EVERY_MS = 30_000;

/** A session that must enrol a second factor first is refused everything else with this code. */
export const SECOND_FACTOR_REQUIRED = "SECOND_FACTOR_REQUIRED";

/** Step-up is refused with this code; the console asks for the proof and sends the request again. */
export const STEP_UP_REQUIRED = "STEP_UP_REQUIRED";

/** A device as its user agent names it, kept short and printable. */
export function deviceOf(request: FastifyRequest): string {
  const agent = request.headers["user-agent"];
  const text = typeof agent === "string" ? agent.replace(/[^\x20-\x7e]/g, "").trim() : "";
  return text.slice(0, 300) || "unknown";
}

/** When the request's sender was last active, from IDLE_HEADER (absent or junk: now). */
export function activityOf(request: FastifyRequest, now: Date): Date {
  const header = request.headers[IDLE_HEADER];
  const idle = typeof header === "string" && /^\d{1,6}$/.test(header) ? Number(header) : 0;
  return new Date(now.getTime() - idle * 1000);
}

export interface Sessions {
  settings: SessionSettings;
  /**
   * Opens a session for `admin` proved by `proof`, and returns its token; `mustEnrol`: one that
   * serves only enrolment until a second factor is confirmed.
   */
  open(
    db: DbOrTx,
    admin: AdministratorRow,
    request: FastifyRequest,
    proof: Proof,
    mustEnrol?: boolean,
  ): Promise<string>;
  /** Records a fresh proof of who the holder is (a step-up, a factor just confirmed). */
  verified(db: DbOrTx, jti: string, proof: Proof): Promise<void>;
  /** Ends one session of `adminId` (when it is theirs and still open); whether it did. */
  end(db: DbOrTx, adminId: number, jti: string, reason: SessionEndReason): Promise<boolean>;
  /** Ends every open session of `adminId` but `except`; how many. */
  endAll(db: DbOrTx, adminId: number, reason: SessionEndReason, except?: string): Promise<number>;
  /** `adminId`'s sessions still open, newest first. */
  active(db: DbOrTx, adminId: number): Promise<(typeof adminSessions.$inferSelect)[]>;
}

export function createSessions(tokens: TokenService, settings: SessionSettings): Sessions {
  const idleMs = settings.idleMinutes * 60_000;
  const open = () => isNull(adminSessions.endedAt);
  return {
    settings,
    async open(db, admin, request, proof, mustEnrol = false) {
      const { token, claims } = await tokens.issue(admin.id, admin.credentialVersion);
      const now = new Date();
      await db.insert(adminSessions).values({
        jti: claims.jti,
        adminId: admin.id,
        address: request.ip,
        device: deviceOf(request),
        credentialVersion: admin.credentialVersion,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: claims.expiresAt,
        verifiedAt: now,
        verifiedBy: proof,
        mustEnrol,
      });
      return token;
    },
    async verified(db, jti, proof) {
      await db
        .update(adminSessions)
        .set({ verifiedAt: new Date(), verifiedBy: proof, lastSeenAt: new Date() })
        .where(eq(adminSessions.jti, jti));
    },
    async end(db, adminId, jti, reason) {
      const ended = await db
        .update(adminSessions)
        .set({ endedAt: new Date(), endReason: reason })
        .where(and(eq(adminSessions.jti, jti), eq(adminSessions.adminId, adminId), open()))
        .returning({ jti: adminSessions.jti });
      return ended.length > 0;
    },
    endAll: endAllSessions,
    async active(db, adminId) {
      // A session opened under an older credential version (a password or e-mail change, a ban
      // since) is over, as its token is.
      const rows = await db
        .select({ session: adminSessions })
        .from(adminSessions)
        .innerJoin(
          administrators,
          and(
            eq(administrators.id, adminSessions.adminId),
            eq(administrators.credentialVersion, adminSessions.credentialVersion),
          ),
        )
        .where(
          and(
            eq(adminSessions.adminId, adminId),
            open(),
            gt(adminSessions.expiresAt, sql`now()`),
            gt(adminSessions.lastSeenAt, new Date(Date.now() - idleMs)),
          ),
        )
        .orderBy(desc(adminSessions.lastSeenAt));
      return rows.map((row) => row.session);
    },
  };
}

/** Ends every open session of `adminId` but `except`; how many. */
export async function endAllSessions(
  db: DbOrTx,
  adminId: number,
  reason: SessionEndReason,
  except?: string,
): Promise<number> {
  const ended = await db
    .update(adminSessions)
    .set({ endedAt: new Date(), endReason: reason })
    .where(
      and(
        eq(adminSessions.adminId, adminId),
        isNull(adminSessions.endedAt),
        gt(adminSessions.expiresAt, sql`now()`),
        except === undefined ? undefined : ne(adminSessions.jti, except),
      ),
    )
    .returning({ jti: adminSessions.jti });
  return ended.length;
}

/**
 * Whether a session's holder proved who they are recently enough for a sensitive action: within
 * `stepUpMinutes`, and with a second factor when they have one (a password proves less).
 */
export function freshEnough(
  session: SessionInfo,
  hasSecondFactor: boolean,
  settings: SessionSettings,
  now = new Date(),
): boolean {
  if (hasSecondFactor && session.verifiedBy === "password") return false;
  return now.getTime() - session.verifiedAt.getTime() <= settings.stepUpMinutes * 60_000;
}

/** The refusal that asks for a step-up, naming the proofs the administrator can give. */
export function stepUpRequired(methods: readonly string[]): HttpError {
  return new HttpError(
    403,
    "This action needs you to confirm who you are again",
    STEP_UP_REQUIRED,
    { methods },
  );
}
