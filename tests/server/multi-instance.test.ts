/**
 * Issue 16, item 8: N server processes behind a load balancer on one PostgreSQL behave as one.
 * Two real `npm start` processes (production settings, each with its own DATA_DIR) start at the
 * same moment on a fresh database, and the test, standing in for the proxy, sends each request
 * to one or the other with the client's address in X-Forwarded-For. PostgreSQL only: the
 * embedded store is one process by design (its DATA_DIR lock refuses a second).
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POSTGRES_URL, testEnv } from "./support/database";
import { freshCode } from "./support/factors";
import { freePort, startServer, type Run } from "./support/server-process";

const ADMIN = { email: "ops@campus.example", password: "Campus#Ops2026" };
const JOB_INTERVAL_MS = 2_000;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 7, 7]);
const MIGRATIONS = (
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL("../../server/db/migrations/meta/_journal.json", import.meta.url)),
      "utf8",
    ),
  ) as { entries: unknown[] }
).entries.length;

interface Instance {
  name: string;
  base: string;
  dataDir: string;
  run: Run;
}

let databaseName: string;
let databaseUrl: string;
let client: pg.Client;
const instances: Instance[] = [];

async function serverQuery(sql: string) {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function startInstance(name: string): Promise<Instance> {
  const dataDir = await mkdtemp(join(tmpdir(), `ucsi-wallet-${name}-`));
  const port = await freePort();
  const run = startServer({
    ...testEnv(dataDir, { NODE_ENV: "production" }),
    LOG_LEVEL: "info",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: "3",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RECAPTCHA_DISABLED: "true",
    PUBLIC_URL: "https://console.wallet.example",
    // The test is the proxy: it connects from loopback and names the client in X-Forwarded-For.
    TRUST_PROXY: "loopback",
    LOGIN_RATE_LIMIT: "3",
    LOGIN_FAILURES_PER_ADDRESS: "4",
    REPORT_RATE_LIMIT_PER_IP: "1",
    HOUSEKEEPING_INTERVAL: `${JOB_INTERVAL_MS / 1000}s`,
  });
  return { name, base: `http://127.0.0.1:${port}/v1`, dataDir, run };
}

const a = () => instances[0]!;
const b = () => instances[1]!;

/** A request through the "proxy" to `instance`, for the client at `clientAddress`. */
function send(
  instance: Instance,
  path: string,
  init: { method?: string; token?: string; json?: unknown; body?: FormData; client?: string } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": init.client ?? "198.51.100.1" };
  if (init.token) headers.authorization = init.token;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  return fetch(`${instance.base}${path}`, {
    method: init.method ?? (init.json !== undefined || init.body ? "POST" : "GET"),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
}

async function logIn(instance: Instance, credentials = ADMIN, clientAddress?: string) {
  return send(instance, "/api/auth/login", { json: credentials, client: clientAddress });
}

async function token(instance: Instance, clientAddress: string): Promise<string> {
  const response = await logIn(instance, ADMIN, clientAddress);
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** The authenticator app the bootstrap administrator enrolled (the enrolment test's secret). */
let secret: string | undefined;

/** A session of the bootstrap administrator with its second factor. */
async function signedIn(instance: Instance, clientAddress: string): Promise<string> {
  expect(secret, "the enrolment test runs first").toBeDefined();
  const response = await logIn(instance, ADMIN, clientAddress);
  const { ticket } = ((await response.json()) as { secondFactor: { ticket: string } }).secondFactor;
  const verified = await send(instance, "/api/auth/login/second-factor", {
    json: { ticket, method: "totp", code: await freshCode(secret!) },
    client: clientAddress,
  });
  expect(verified.status, await verified.clone().text()).toBe(200);
  return ((await verified.json()) as { token: string }).token;
}

/** The JSON log lines of a run's output with this message. */
function logLines(run: Run, message: string): Array<Record<string, unknown>> {
  return run
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes(`"msg":"${message}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(POSTGRES_URL === undefined)("two server instances on one PostgreSQL", () => {
  beforeAll(async () => {
    databaseName = `wallet_multi_${process.pid}_${Date.now().toString(36)}`;
    await serverQuery(`create database "${databaseName}"`);
    const url = new URL(POSTGRES_URL!);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    client = new pg.Client({ connectionString: databaseUrl });
    // Both migrate the empty database at the same moment.
    instances.push(...(await Promise.all([startInstance("a"), startInstance("b")])));
    await Promise.all(
      instances.map((instance) => instance.run.waitFor("UCSI Wallet console:", 90_000)),
    );
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    for (const instance of instances) instance.run.kill("SIGTERM");
    const codes = await Promise.all(instances.map((instance) => instance.run.exit));
    await client?.end().catch(() => undefined);
    for (const instance of instances) await rm(instance.dataDir, { recursive: true, force: true });
    if (databaseName) await serverQuery(`drop database if exists "${databaseName}" with (force)`);
    expect(codes).toEqual([0, 0]);
  });

  it("both start when they migrate a fresh database at the same moment", async () => {
    const migrations = await client.query(
      "select count(*)::int as n from drizzle.__drizzle_migrations",
    );
    expect(migrations.rows[0].n).toBe(MIGRATIONS);
    // One bootstrap administrator, and no demo data in production.
    const admins = await client.query("select email from administrators");
    expect(admins.rows).toEqual([{ email: ADMIN.email }]);
    const users = await client.query("select count(*)::int as n from users");
    expect(users.rows[0].n).toBe(0);
    for (const instance of instances) {
      expect((await send(instance, "/health")).status).toBe(200);
    }
  });

  it("counts a client's login attempts on either instance against one limit", async () => {
    const wrong = { email: ADMIN.email, password: "Wrong#Guess2026" };
    const address = "203.0.113.7";
    // LOGIN_RATE_LIMIT=3 per client and e-mail: the fourth attempt is refused, wherever it lands.
    for (const instance of [a(), b(), a()]) {
      expect((await logIn(instance, wrong, address)).status).toBe(401);
    }
    const fourth = await logIn(b(), wrong, address);
    expect(fourth.status).toBe(429);
    expect(await fourth.json()).toMatchObject({ code: "RATE_LIMITED" });

    // LOGIN_FAILURES_PER_ADDRESS=4 across e-mails (spraying), alternating instances.
    const sprayer = "203.0.113.8";
    for (const [i, instance] of [a(), b(), a(), b()].entries()) {
      const guess = { email: `sprayed.${i}@campus.example`, password: "Guess#2026" };
      expect((await logIn(instance, guess, sprayer)).status).toBe(401);
    }
    const stopped = await logIn(a(), ADMIN, sprayer);
    expect(stopped.status).toBe(429);
    expect(((await stopped.json()) as { message: string }).message).toMatch(
      /^Too many failed logins from this address/,
    );
    // The limits are the client's, as the proxy reports it, not the proxy's own address.
    expect((await logIn(b(), ADMIN, "203.0.113.9")).status).toBe(200);
  });

  it("counts calculator reports from one client on either instance against one limit", async () => {
    const report = {
      inputs: { name: "Visitor", cashAndCashEquivalents: "1000", totalMonthlyExpenses: "500" },
      email: "visitor@mail.example",
      captchaToken: "not-checked",
      language: "en-US",
    };
    const first = await send(a(), "/api/calculator/report", {
      json: report,
      client: "203.0.113.30",
    });
    expect(first.status, await first.clone().text()).toBe(202);
    const second = await send(b(), "/api/calculator/report", {
      json: report,
      client: "203.0.113.30",
    });
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: "RATE_LIMITED", data: { limit: "ip" } });
  });

  it("refuses on B a token given back by a logout on A", async () => {
    const session = await token(a(), "203.0.113.20");
    expect((await send(b(), "/api/account/admin", { token: session })).status).toBe(200);
    expect((await send(a(), "/api/auth/logout", { method: "POST", token: session })).status).toBe(
      204,
    );
    const refused = await send(b(), "/api/account/admin", { token: session });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: "Invalid credential key" });
  });

  it("takes the bootstrap administrator to enrolment, confirmed on B, and a code used on A is refused on B", async () => {
    const first = await logIn(a(), ADMIN, "203.0.113.30");
    expect(first.status).toBe(200);
    const enrolling = (await first.json()) as { token: string; enrolmentRequired: boolean };
    // Production requires a second factor of everyone: only enrolment is served until then.
    expect(enrolling.enrolmentRequired).toBe(true);
    const refused = await send(b(), "/api/administrators/aggregation", { token: enrolling.token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "SECOND_FACTOR_REQUIRED" });

    const started = await send(a(), "/api/account/factors/totp", {
      method: "POST",
      token: enrolling.token,
    });
    expect(started.status, await started.clone().text()).toBe(200);
    secret = ((await started.json()) as { secret: string }).secret;
    const confirmed = await send(b(), "/api/account/factors/totp/confirm", {
      json: { code: await freshCode(secret) },
      token: enrolling.token,
    });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(
      (await send(a(), "/api/administrators/aggregation", { token: enrolling.token })).status,
    ).toBe(200);

    // The next sign-in asks for the code; the step one instance accepted, the other refuses.
    const code = await freshCode(secret);
    const tickets = await Promise.all(
      [a(), b()].map(async (instance, index) => {
        const response = await logIn(instance, ADMIN, `203.0.113.3${index + 1}`);
        return ((await response.json()) as { secondFactor: { ticket: string } }).secondFactor
          .ticket;
      }),
    );
    const onA = await send(a(), "/api/auth/login/second-factor", {
      json: { ticket: tickets[0], method: "totp", code },
    });
    expect(onA.status).toBe(200);
    const onB = await send(b(), "/api/auth/login/second-factor", {
      json: { ticket: tickets[1], method: "totp", code },
    });
    expect(onB.status).toBe(400);
    expect(await onB.json()).toMatchObject({ code: "WRONG_CODE" });
  });

  it("serves from B a document uploaded through A", async () => {
    const user = await client.query<{ id: number }>(
      "insert into users (account_number, name, role) values ('MI0000001', 'Multi Rider', 'rider') returning id",
    );
    const riderId = user.rows[0]!.id;
    await client.query(
      "insert into riders (user_id, vehicle_type, plate, licence_number) values ($1, 'motorcycle', 'WA 1', 'D1')",
      [riderId],
    );
    const session = await signedIn(a(), "203.0.113.21");
    const form = new FormData();
    form.append("account_number", "MI0000001");
    form.append("documents", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "photo.png");
    const edited = await send(a(), "/user-mgmt/edit-rider-details", { body: form, token: session });
    expect(edited.status, await edited.clone().text()).toBe(200);
    const { rider } = (await edited.json()) as { rider: { documents: { downloadPath: string }[] } };

    const download = await send(b(), rider.documents[0]!.downloadPath, { token: session });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);
    // Nothing of it on either instance's disk.
    for (const instance of instances) {
      expect(await readdir(instance.dataDir)).not.toContain("documents");
    }
  });

  it("runs the scheduled housekeeping once per interval across both instances", async () => {
    // Both instances check the job four times per interval; let a few intervals pass.
    await new Promise((resolve) => setTimeout(resolve, 3 * JOB_INTERVAL_MS + 500));
    const { rows } = await client.query<{ runs: number }>(
      "select runs from scheduled_jobs where name = 'housekeeping'",
    );
    const runs = rows[0]!.runs;
    expect(runs).toBeGreaterThanOrEqual(3);
    // A run claimed just now has had time to finish and log (the job takes milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ran = instances
      .flatMap((instance) => logLines(instance.run, "scheduled job ran"))
      .filter((line) => line.job === "housekeeping" && Number(line.run) <= runs)
      .sort((x, y) => Number(x.run) - Number(y.run));
    // Every run was done and logged by exactly one instance…
    expect(ran.map((line) => line.run)).toEqual(Array.from({ length: runs }, (_, i) => i + 1));
    // …and no two runs came closer than the interval, whichever instance did each.
    for (let i = 1; i < ran.length; i += 1) {
      expect(Number(ran[i]!.time) - Number(ran[i - 1]!.time)).toBeGreaterThan(
        JOB_INTERVAL_MS - 100,
      );
    }
  });
});
