import { and, eq, isNull, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";

import { holdsPermission, isPermissionCode } from "../../src/shared/permissions";
import type { PermissionCode } from "../../src/shared/permissions";
import type { Db } from "../db";
import {
  administrators,
  adminSessions,
  users,
  type AdministratorRow,
  type UserRow,
} from "../db/schema";
import { HttpError } from "../errors";
import { factorsOf } from "./factors";
import {
  activityOf,
  freshEnough,
  SECOND_FACTOR_REQUIRED,
  stepUpRequired,
  TOUCH_EVERY_MS,
  type SessionInfo,
  type SessionSettings,
} from "./sessions";
import { TOKEN_MESSAGES, tokenFromHeader, type TokenClaims, type TokenService } from "./tokens";

/**
 * What a route needs, declared once in its `config.access`:
 * - `"public"`: anyone (health, login);
 * - `"session"`: any administrator with a valid token (account, dashboard);
 * - `"wallet"`: a wallet user with a valid wallet app token (the app's own calls);
 * - `{ permission, thing }`: an administrator holding that code; `thing` names the route in the
 *   403 message `You have no permission to access <METHOD> <thing>`.
 * Every route under the API prefix must declare one; the app refuses to start otherwise.
 */
export type RouteAccess =
  "public" | "session" | "wallet" | { permission: PermissionCode; thing: string };

declare module "fastify" {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * The route's name in refusals, when it takes its scope's default permission (a module's
     * endpoints: see defaultAccess) under a name of its own ("Single User").
     */
    thing?: string;
    /**
     * Sensitive: the administrator must have proved who they are within STEP_UP_MINUTES (a
     * second factor when they have one), else 403 STEP_UP_REQUIRED (server/auth/sessions.ts).
     */
    stepUp?: boolean;
    /** Served to a session that must enrol a second factor before anything else. */
    enrolment?: boolean;
  }
  interface FastifyRequest {
    /** The authenticated administrator on "session" and permission routes; null on public ones. */
    admin: AdministratorRow | null;
    /** The claims of the token that authenticated it. */
    token: TokenClaims | null;
    /** The staff session behind the token (what a logout ends). */
    session: SessionInfo | null;
    /** The wallet user on "wallet" routes; null on every other. */
    walletUser: UserRow | null;
  }
}

export function noPermissionMessage(method: string, thing: string) {
  return `You have no permission to access ${method} ${thing}`;
}

/** The current administrator of a route declared "session" or with a permission. */
export function currentAdmin(request: FastifyRequest): AdministratorRow {
  if (!request.admin) throw new Error("currentAdmin() on a route without a session");
  return request.admin;
}

export interface AccessControlOptions {
  db: Db;
  tokens: TokenService;
  /** The wallet app's tokens (their own audience): what "wallet" routes accept. */
  walletTokens: TokenService;
  /** Routes under this prefix must declare their access (e.g. "/v1"). */
  apiPrefix: string;
  /** Routes under these prefixes are exempt (documentation). */
  exemptPrefixes: string[];
  /** The idle timeout and the step-up window. */
  sessions: SessionSettings;
}

function validateDeclaration(access: unknown, where: string): void {
  if (access === "public" || access === "session" || access === "wallet") return;
  if (
    typeof access === "object" &&
    access !== null &&
    isPermissionCode((access as { permission?: unknown }).permission) &&
    typeof (access as { thing?: unknown }).thing === "string"
  ) {
    return;
  }
  throw new Error(
    `Route ${where} must declare config.access ("public", "session", "wallet" or a permission)`,
  );
}

/** Where a scope keeps the access its routes take when they state none (see defaultAccess). */
const DEFAULT_ACCESS = Symbol.for("ucsi.access.default");

/**
 * The API routes registered in `scope` (and in its children) that declare no `config.access` get
 * `access`: the kit gives a module's endpoints the module's permission this way, named in
 * refusals by the route's `config.thing` when it states one. A route that states its own access
 * ("session", "public", another permission) keeps it.
 */
export function defaultAccess(scope: FastifyInstance, access: RouteAccess): void {
  // A getter: Fastify refuses an object as a decoration's value (one object shared by every request).
  scope.decorate(DEFAULT_ACCESS, { getter: () => access });
}

/**
 * Installs the access check on `app` (call it on the root instance before registering routes):
 * an onRoute hook that rejects undeclared API routes at start-up, and an onRequest hook that
 * authenticates and authorises before the body is even parsed, so a caller without permission
 * learns nothing from validation errors.
 */
export function installAccessControl(app: FastifyInstance, options: AccessControlOptions) {
  const { db, tokens, walletTokens, apiPrefix, exemptPrefixes, sessions } = options;
  const idleMs = sessions.idleMinutes * 60_000;
  const isApiUrl = (url: string) =>
    (url === apiPrefix || url.startsWith(`${apiPrefix}/`)) &&
    !exemptPrefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));

  app.decorateRequest("admin", null);
  app.decorateRequest("token", null);
  app.decorateRequest("session", null);
  app.decorateRequest("walletUser", null);
  // Every authenticated request runs this: built once, planned once per connection. It reads the
  // administrator with the token's session (none when the token names another administrator's).
  const findAdmin = db
    .select({
      admin: administrators,
      session: {
        jti: adminSessions.jti,
        createdAt: adminSessions.createdAt,
        lastSeenAt: adminSessions.lastSeenAt,
        expiresAt: adminSessions.expiresAt,
        verifiedAt: adminSessions.verifiedAt,
        verifiedBy: adminSessions.verifiedBy,
        mustEnrol: adminSessions.mustEnrol,
        endedAt: adminSessions.endedAt,
      },
    })
    .from(administrators)
    .leftJoin(
      adminSessions,
      and(
        eq(adminSessions.jti, sql.placeholder("jti")),
        eq(adminSessions.adminId, administrators.id),
      ),
    )
    .where(eq(administrators.id, sql.placeholder("id")))
    .prepare("session_administrator");

  /**
   * The session `request` is made in, still open: ended when it has been idle too long (the
   * console's IDLE_HEADER counts its own polling as idle), its last use written at most every
   * TOUCH_EVERY_MS.
   */
  async function liveSession(
    request: FastifyRequest,
    session: (SessionInfo & { endedAt: Date | null }) | null,
  ): Promise<SessionInfo> {
    if (!session || session.endedAt) throw new HttpError(401, TOKEN_MESSAGES.invalid);
    const now = new Date();
    const activity = activityOf(request, now);
    const lastSeen = session.lastSeenAt.getTime();
    const lastUse = Math.max(lastSeen, activity.getTime());
    const where = and(eq(adminSessions.jti, session.jti), isNull(adminSessions.endedAt));
    // Idle too long now, or between the last use the server knew of and this request's activity
    // (a request after a long pause is activity that comes too late).
    if (now.getTime() - lastUse > idleMs || activity.getTime() - lastSeen > idleMs) {
      await db.update(adminSessions).set({ endedAt: now, endReason: "idle" }).where(where);
      throw new HttpError(401, TOKEN_MESSAGES.expired);
    }
    if (activity.getTime() - lastSeen >= TOUCH_EVERY_MS) {
      await db.update(adminSessions).set({ lastSeenAt: activity }).where(where);
      return { ...session, lastSeenAt: activity };
    }
    return session;
  }

  app.addHook("onRoute", function (route) {
    if (!isApiUrl(route.url)) return;
    // A route that states no access takes its scope's default (see defaultAccess), if it has one.
    const fallback = (this as unknown as Record<symbol, RouteAccess | undefined>)[DEFAULT_ACCESS];
    if (route.config?.access === undefined && fallback !== undefined) {
      const thing = route.config?.thing;
      const access = thing && typeof fallback === "object" ? { ...fallback, thing } : fallback;
      route.config = { ...route.config, access };
    }
    const methods = Array.isArray(route.method) ? route.method.join(",") : route.method;
    validateDeclaration(route.config?.access, `${methods} ${route.url}`);
  });

  app.addHook("onRequest", async (request) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === undefined) {
      // Only routes outside the API (documentation, the console's files) may lack a declaration;
      // onRoute already refuses API routes without one, this is the belt to those braces.
      const apiRoute = isApiUrl(request.routeOptions.url ?? "");
      if (apiRoute) throw new HttpError(500, "Route has no access declaration", "INTERNAL_ERROR");
      return;
    }
    if (access === "public") return;

    const token = tokenFromHeader(request.headers.authorization);
    if (!token) throw new HttpError(401, TOKEN_MESSAGES.missing);
    if (access === "wallet") {
      request.walletUser = await walletUserOf(db, await walletTokens.verify(token));
      return;
    }
    const claims = await tokens.verify(token);
    const [found] = await findAdmin.execute({ id: claims.subject, jti: claims.jti });
    if (!found) throw new HttpError(401, TOKEN_MESSAGES.unknownAdmin);
    const { admin } = found;
    // A banned or disabled administrator is told so (their older tokens are invalid too).
    if (admin.status !== "active") throw new HttpError(403, TOKEN_MESSAGES.banned);
    // Issued before a password, e-mail or status change: no longer a credential.
    if (admin.credentialVersion !== claims.version) {
      throw new HttpError(401, TOKEN_MESSAGES.invalid);
    }
    // Logged out, ended, idle too long, or never issued by a sign-in: no longer a session.
    const session = await liveSession(request, found.session);
    request.admin = admin;
    request.token = claims;
    request.session = session;
    if (session.mustEnrol && !request.routeOptions.config.enrolment) {
      throw new HttpError(
        403,
        "Set up a second factor first: it is required for your account",
        SECOND_FACTOR_REQUIRED,
      );
    }

    if (access !== "session" && !holdsPermission(admin, access.permission)) {
      throw new HttpError(403, noPermissionMessage(request.method, access.thing));
    }
    if (request.routeOptions.config.stepUp) {
      const { methods } = await factorsOf(db, admin.id);
      if (!freshEnough(session, methods.length > 0, sessions)) {
        throw stepUpRequired(methods.length > 0 ? methods : ["password"]);
      }
    }
  });
}

/**
 * The user a wallet app token stands for: refused once the user is banned, or when it was issued
 * before the user's last password reset (the credential version moved on).
 */
async function walletUserOf(db: Db, claims: TokenClaims): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, claims.subject));
  if (!user || user.credentialVersion !== claims.version) {
    throw new HttpError(401, TOKEN_MESSAGES.invalid);
  }
  if (user.isBanned) throw new HttpError(403, TOKEN_MESSAGES.banned);
  return user;
}
