import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import fastifyCors from "@fastify/cors";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { z } from "zod";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import helmet from "helmet";
import {
  jsonSchemaTransformObject,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";

import { installAccessControl } from "./auth/access";
import { configurePasswordHashing } from "./auth/password";
import { authRoutes } from "./auth/routes";
import { securityRoutes } from "./auth/security-routes";
import { createSessions, IDLE_HEADER } from "./auth/sessions";
import { CHANGE_REASON_HEADER } from "../src/shared/kit/four-eyes";
import { AUDIENCES, createTokenService } from "./auth/tokens";
import { setBusinessTimeZone } from "./business-day";
import type { Config } from "./config";
import type { Database } from "./db";
import { createCounters } from "./rate-limit/counters";
import { databaseRateLimitStore } from "./rate-limit/store";
import { HttpError } from "./errors";
import { errorHandler } from "./http/errors";
import { installStrictJsonParser } from "./http/json-body";
import { configureFourEyes } from "./kit/four-eyes";
import { installMethodNotAllowed } from "./http/method-not-allowed";
import { responseSerializer } from "./http/serializer";
import { openApiTransform } from "./http/openapi";
import { accountRoutes } from "./routes/account";
import { dashboardRoutes } from "./routes/dashboard";
import { moduleRoutesPlugin } from "./modules";
import { publicContentImageRoutes } from "./content/images";
import { healthRoutes, PROBE_PATHS } from "./routes/health";
import { createReadiness, installDrainGuard, type Readiness } from "./http/readiness";
import { globalSettingsRoutes } from "./routes/global-settings";
import { reportRoutes } from "./routes/report";
import { walletAppRoutes } from "./routes/wallet-app";
import { passwordResetRoutes } from "./routes/password-reset";
import { statisticsRoutes } from "./routes/statistics";
import { integrityRoutes } from "./routes/integrity";
import { installLiveMoment, liveRoutes } from "./live/routes";
import { LIVE_MOMENT_HEADER } from "../src/shared/live";
import { savedViewRoutes } from "./saved-views/routes";
import type { RouteDeps } from "./http/deps";
import { createMailer } from "./mail/transport";
import { shellPageId } from "../src/shared/shell-pages";

export const API_PREFIX = "/v1";
export const DOCS_PREFIX = `${API_PREFIX}/docs`;
/** JSON bodies; file uploads (a later module) get their own multipart limits. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
const DEFAULT_DIST_DIR = fileURLToPath(new URL("../dist", import.meta.url));

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** The built console (`vite build` output); served at `/` when it holds an index.html. */
  distDir?: string;
  /** Where JSON log lines go (default stdout); tests capture them here. */
  logStream?: { write(line: string): void };
}

export type App = FastifyInstance;

declare module "fastify" {
  interface FastifyInstance {
    /** This instance's readiness and drain (server/http/readiness.ts); main.ts drains it. */
    readiness: Readiness;
  }
}

/** The querystring of a route that declares none: no parameters at all. */
const NO_QUERY = z.strictObject({});

/** Never log credentials: the Authorization header, cookies, or any password in a body. */
const REDACT = [
  "req.headers.authorization",
  "req.headers.cookie",
  'res.headers["set-cookie"]',
  "*.password",
  "*.currentPassword",
  "*.newPassword",
];

function loggerOptions(config: Config, stream: BuildAppOptions["logStream"]) {
  if (config.logLevel === "silent") return false;
  return {
    level: config.logLevel,
    redact: { paths: REDACT, censor: "[redacted]" },
    ...(stream ? { stream } : {}),
  } satisfies FastifyServerOptions["logger"];
}

/**
 * The site's Content-Security-Policy: same-origin scripts, antd's inline styles, data: images,
 * plus Google's reCAPTCHA script and frame for the calculator's report dialog (the sources
 * Google documents for reCAPTCHA under a CSP).
 */
const RECAPTCHA_SCRIPTS = [
  "https://www.google.com/recaptcha/",
  "https://www.gstatic.com/recaptcha/",
];
const RECAPTCHA_FRAMES = [
  "https://www.google.com/recaptcha/",
  "https://recaptcha.google.com/recaptcha/",
];
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  frameSrc: ["'self'", ...RECAPTCHA_FRAMES],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", "data:"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  imgSrc: ["'self'", "data:"],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'", ...RECAPTCHA_SCRIPTS],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  // Would send same-origin requests to https on a plain-http deployment (a LAN address).
  upgradeInsecureRequests: null,
};

/**
 * `'sha256-…'` sources for the inline scripts of the built page (the calculator's language choice
 * before its first paint, build/prerender-calculator.ts), so the CSP allows exactly those.
 */
export function inlineScriptHashes(page: string): string[] {
  if (!existsSync(page)) return [];
  const scripts = readFileSync(page, "utf8").matchAll(/<script>([\s\S]*?)<\/script>/g);
  return [...scripts].map(
    ([, body]) => `'sha256-${createHash("sha256").update(body!).digest("base64")}'`,
  );
}

/**
 * Builds the reference API server: Fastify with zod schemas (validation, serialization and the
 * OpenAPI document at /v1/docs), security headers, CORS, the access check every route declares,
 * the API routes under /v1, and the built console with SPA fallback.
 */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, database } = options;
  // Four eyes is never turned off for a money movement in production (server/kit/four-eyes.ts).
  configureFourEyes({ production: config.nodeEnv === "production" });
  configurePasswordHashing({ cost: config.passwordHashCost });
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // Behind a proxy or load balancer, the client's address is in X-Forwarded-For (TRUST_PROXY).
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    // The router's own refusals (a path parameter over the length limit: 414; a malformed URL:
    // 400) leave in the API's error shape, not Fastify's.
    // A stopping instance answers new requests itself (503 SERVER_DRAINING, retryable, in the
    // API's error shape) from the moment it refuses them, before close() (server/http/readiness.ts).
    return503OnClosing: false,
    frameworkErrors: (error, request, reply) => {
      reply.header("Cache-Control", "no-store");
      return errorHandler(error, request, reply);
    },
  }).withTypeProvider<ZodTypeProvider>();

  const readiness = createReadiness(database.db);
  app.decorate("readiness", readiness);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);
  app.setErrorHandler(errorHandler);
  // The API speaks JSON only (Fastify also parses text/plain by default), read strictly.
  app.removeContentTypeParser("text/plain");
  installStrictJsonParser(app);

  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  const scriptSrc = [
    ...CSP_DIRECTIVES.scriptSrc,
    ...inlineScriptHashes(join(distDir, "index.html")),
  ];
  // Helmet's middleware, made once: @fastify/helmet made it again on every request, parsing the
  // policy's directives each time (3% of the server's CPU on a list page).
  const securityHeaders = helmet({
    contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, scriptSrc } },
  });
  app.addHook("onRequest", (request, reply, done) => {
    // Helmet throws rather than passes an error (since 8.1): done() is only ever called bare.
    securityHeaders(request.raw, reply.raw, () => done());
  });
  // After the security headers: a stopping instance's 503 carries them like every answer.
  installDrainGuard(app, readiness, PROBE_PATHS);
  if (config.corsOrigins.length > 0) {
    await app.register(fastifyCors, {
      origin: config.corsOrigins,
      methods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
      // The console's own: a four-eyes change's reason, how long its user has been away, the
      // version a change is based on (docs/versions.md) and where a live stream resumes.
      allowedHeaders: [
        "Authorization",
        "Content-Type",
        "Accept-Language",
        CHANGE_REASON_HEADER,
        IDLE_HEADER,
        "If-Match",
        "Last-Event-ID",
      ],
      exposedHeaders: ["ETag", LIVE_MOMENT_HEADER],
      maxAge: 600,
    });
  }
  const counters = createCounters(database.db);
  await app.register(fastifyRateLimit, {
    global: false,
    // In the database, so that every server instance counts against the same limits.
    store: databaseRateLimitStore(counters),
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many attempts, retry in ${context.after}`, "RATE_LIMITED", {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });

  // After CORS (a browser must be able to read the 405), before the documentation's routes and
  // the access check: a wrong method on a known path is 405 whoever asks.
  const refuseUnknownMethod = installMethodNotAllowed(app, API_PREFIX);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "UCSI Wallet back-office API",
        description:
          "The reference server of the back-office console. Authenticate with POST " +
          "/v1/api/auth/login and send the token as the Authorization header. Every error is " +
          "`{code?, message, data?}`. A method a path does not have answers 405 " +
          "METHOD_NOT_ALLOWED with an Allow header listing those it has, before any " +
          "authentication; a fixed path (…/aggregation, …/images) is never taken for an id. " +
          "Every answer under /v1 carries Cache-Control: no-store.",
        version: "1.0.0",
      },
      servers: [{ url: "/" }],
      components: {
        securitySchemes: { jwt: { type: "apiKey", in: "header", name: "Authorization" } },
      },
      security: [{ jwt: [] }],
    },
    transform: openApiTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { validatorUrl: null, persistAuthorization: false },
  });

  // Every API answer, errors included, is private to its caller and of the moment: never cached.
  const isApiPath = (url: string) => {
    const path = url.split("?")[0] ?? "";
    return (
      (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) &&
      path !== DOCS_PREFIX &&
      !path.startsWith(`${DOCS_PREFIX}/`)
    );
  };
  app.addHook("onSend", async (request, reply) => {
    if (isApiPath(request.url)) reply.header("Cache-Control", "no-store");
  });
  installLiveMoment(app);

  // A route that declares no query parameters takes none: an unknown one is refused with 400 (the
  // fuzz found them silently ignored), never dropped. Routes with a querystring schema are strict.
  app.addHook("onRoute", (route) => {
    if (!isApiPath(route.url)) return;
    route.schema = { ...route.schema, querystring: route.schema?.querystring ?? NO_QUERY };
  });

  setBusinessTimeZone(config.businessTimeZone);
  const tokens = createTokenService(config.jwtSecret, config.jwtTtlSeconds);
  const walletTokens = createTokenService(
    config.jwtSecret,
    config.jwtTtlSeconds,
    AUDIENCES.walletApp,
  );
  installAccessControl(app, {
    db: database.db,
    tokens,
    walletTokens,
    apiPrefix: API_PREFIX,
    exemptPrefixes: [DOCS_PREFIX],
    sessions: config.sessions,
  });
  const sessions = createSessions(tokens, config.sessions);

  // One mailer for every route that sends mail (the report, reset links), closed with the app.
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
  });
  app.addHook("onClose", async () => mailer.close());
  const deps: RouteDeps = {
    db: database.db,
    config,
    tokens,
    sessions,
    walletTokens,
    counters,
    mailer,
    readiness,
  };
  await app.register(
    async (api) => {
      // The cross-cutting routes; every module's routes come with moduleRoutesPlugin.
      await api.register(healthRoutes, deps);
      await api.register(authRoutes, deps);
      await api.register(accountRoutes, deps);
      await api.register(securityRoutes, deps);
      await api.register(dashboardRoutes, deps);
      await api.register(reportRoutes, deps);
      await api.register(walletAppRoutes, deps);
      await api.register(passwordResetRoutes, deps);
      await api.register(globalSettingsRoutes, deps);
      await api.register(statisticsRoutes, deps);
      await api.register(integrityRoutes, deps);
      await api.register(savedViewRoutes, deps);
      await api.register(publicContentImageRoutes, deps);
      await api.register(moduleRoutesPlugin, deps);
      await api.register(liveRoutes, { ...deps, database });
    },
    { prefix: API_PREFIX },
  );

  const serveConsole = existsSync(join(distDir, "index.html"));
  // The console's page: index.html without the calculator's HTML (build/prerender-calculator.ts).
  const consolePage = existsSync(join(distDir, "console.html")) ? "console.html" : "index.html";
  if (serveConsole) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: "/",
      index: ["index.html"],
      // `vite build` writes .br and .gz beside each text file (vite.config.ts): served to
      // browsers that accept them, so a phone on a slow link gets ~a third of the bytes.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        // Vite fingerprints everything under assets/; the page itself must be revalidated.
        const immutable = path.startsWith(join(distDir, "assets"));
        reply.header(
          "Cache-Control",
          immutable ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
    // `/` is the calculator's page, but `/?id=<a shell page>` opens that page as every other path
    // does (src/shared/shell-pages.ts): the console's page, with no calculator HTML to paint
    // first. Chosen by the URL alone, so a cache, which keys on the whole URL, keeps them apart.
    app.get("/", (request, reply) => {
      const query = request.url.indexOf("?");
      const search = query === -1 ? "" : request.url.slice(query);
      return reply.sendFile(shellPageId(search) === undefined ? "index.html" : consolePage);
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
    if (serveConsole && !isApi && (request.method === "GET" || request.method === "HEAD")) {
      // Client-side routes (/dashboard, /manage-admin/3, …) are the console's to resolve.
      return reply.sendFile(consolePage);
    }
    refuseUnknownMethod(request, reply);
    return reply
      .status(404)
      .send({ code: "NOT_FOUND", message: `Route ${request.method} ${path} not found` });
  });

  await app.ready();
  return app;
}
