import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";

import { holdsPermission, isPermissionCode } from "../../src/shared/permissions";
import type { PermissionCode } from "../../src/shared/permissions";
import type { Db } from "../db";
import {
  administrators,
  revokedTokens,
  users,
  type AdministratorRow,
  type UserRow,
} from "../db/schema";
import { HttpError } from "../errors";
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
  }
  interface FastifyRequest {
    /** The authenticated administrator on "session" and permission routes; null on public ones. */
    admin: AdministratorRow | null;
    /** The claims of the token that authenticated it (what a logout revokes). */
    token: TokenClaims | null;
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
  const { db, tokens, walletTokens, apiPrefix, exemptPrefixes } = options;
  const isApiUrl = (url: string) =>
    (url === apiPrefix || url.startsWith(`${apiPrefix}/`)) &&
    !exemptPrefixes.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));

  app.decorateRequest("admin", null);
  app.decorateRequest("token", null);
  app.decorateRequest("walletUser", null);
  // Every authenticated request runs this: built once, planned once per connection. It also
  // says whether the token was given back by a logout.
  const findAdmin = db
    .select({
      admin: administrators,
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder("jti")})`,
    })
    .from(administrators)
    .where(eq(administrators.id, sql.placeholder("id")))
    .prepare("session_administrator");

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
    const { admin, revoked } = found;
    // A banned or disabled administrator is told so (their older tokens are invalid too).
    if (admin.status !== "active") throw new HttpError(403, TOKEN_MESSAGES.banned);
    // Logged out, or issued before a password, e-mail or status change: no longer a credential.
    if (revoked || admin.credentialVersion !== claims.version) {
      throw new HttpError(401, TOKEN_MESSAGES.invalid);
    }
    request.admin = admin;
    request.token = claims;

    if (access !== "session" && !holdsPermission(admin, access.permission)) {
      throw new HttpError(403, noPermissionMessage(request.method, access.thing));
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
