/**
 * The fleet at work (issue 36, items 1, 3 and 4; docs/fleet.md): three instances of the server on
 * one PostgreSQL behind HAProxy with deploy/haproxy.cfg, under a mixed load (lists, details,
 * counter top-ups, four-eyes top-ups and their approvals, logins), through these phases:
 *
 * 1. steady: nothing happens;
 * 2. rolling restart: each instance in turn gets SIGTERM, exits, starts again and becomes ready;
 *    target 0 failed requests;
 * 3. kill -9: one instance dies mid-load and is started again;
 * 4. PostgreSQL restart: PostgreSQL stops for 10 s and starts again; the instances answer 503
 *    (never 500), nothing hangs beyond the timeouts, and each is ready again within 5 s.
 *
 * After the load, every write the load saw acknowledged is checked against the database, and
 * every wallet's balance against its newest ledger row.
 *
 *   npm run bench:fleet [-- --phase 15 --workers 6]
 *
 * Needs Debian's haproxy and postgresql packages (`apt-get install haproxy postgresql`).
 * PostgreSQL: BENCH_DATABASE_URL (then the PostgreSQL restart phase is skipped), else a
 * throwaway cluster on port 55438 (bench/support/postgres.ts).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

import pg from "pg";

import { CHANGE_REASON_HEADER } from "../src/shared/kit/four-eyes";
import { demoLogins } from "../tests/e2e/support/server";
import { fleetEnv, postgresDatabase, postgresServer } from "./support/postgres";

const { values: args } = parseArgs({
  options: {
    phase: { type: "string", default: "15" },
    workers: { type: "string", default: "6" },
  },
});
const PHASE_MS = Number(args.phase) * 1000;
const WORKERS = Number(args.workers);
const ROOT = resolve(import.meta.dirname, "..");
const WORK = join(tmpdir(), "campus-wallet-bench", "fleet");
const BALANCER = 19080;
const PORTS = [19081, 19082, 19083];
const DIRECT_SEN = 500;
const FOUR_EYES_SEN = 20_100;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---- the instances ------------------------------------------------------------------------

interface Instance {
  name: string;
  port: number;
  dataDir: string;
  child?: ChildProcess;
  log: string;
}

function launch(instance: Instance, env: Record<string, string>) {
  instance.log += `\n---- started at ${new Date().toISOString()}\n`;
  const child = spawn(
    process.execPath,
    ["--max-semi-space-size=64", "--import", "tsx", "server/main.ts"],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: String(instance.port), DATA_DIR: instance.dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout!.on("data", (b: Buffer) => (instance.log += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (instance.log += b.toString()));
  instance.child = child;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once("exit", () => r()));

/** Milliseconds until `GET /v1/ready` answers 200 on the instance itself. */
async function untilReady(instance: Instance, timeoutMs = 300_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      const answer = await fetch(`http://127.0.0.1:${instance.port}/v1/ready`, {
        signal: AbortSignal.timeout(2000),
      });
      if (answer.status === 200) return performance.now() - started;
    } catch {
      // not listening yet, or busy
    }
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${instance.name} not ready:\n${instance.log.slice(-3000)}`);
    }
    await sleep(50);
  }
}

// ---- the load -----------------------------------------------------------------------------

interface Sample {
  at: number;
  ms: number;
  op: string;
  status: number; // 0: no answer
  code?: string;
}

const samples: Sample[] = [];
/** What the bench did when, for reading failures against (seconds, performance.now()). */
const events: string[] = [];
const acknowledged = { topUps: [] as string[], approvals: [] as number[] };
let running = true;

async function call(
  op: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const at = performance.now();
  try {
    const answer = await fetch(`http://127.0.0.1:${BALANCER}/v1${path}`, {
      method,
      headers: {
        ...(token ? { authorization: token } : {}),
        ...(body ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await answer.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // HAProxy's own pages are HTML
    }
    samples.push({
      at,
      ms: performance.now() - at,
      op,
      status: answer.status,
      code: typeof json.code === "string" ? json.code : undefined,
    });
    return { status: answer.status, json };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = `${String(error)} ${cause?.code ?? cause?.message ?? ""}`;
    samples.push({ at, ms: performance.now() - at, op, status: 0, code });
    return { status: 0, json: {} as Record<string, unknown> };
  }
}

async function signIn(login: { email: string; password: string }) {
  for (;;) {
    const { status, json } = await call("login", "POST", "/api/auth/login", undefined, login);
    if (status === 200) return json.token as string;
    await sleep(500);
  }
}

const reason = { [CHANGE_REASON_HEADER]: encodeURIComponent("Cash at the counter (bench)") };

async function worker(
  tokens: { maker: string; approver: string },
  logins: { email: string; password: string }[],
  accounts: string[],
  userIds: number[],
) {
  let n = 0;
  while (running) {
    n += 1;
    // As a client would: a moment's pause after a failure (the API says Retry-After; HAProxy's
    // own 503, with no instance ready, says nothing).
    const last = samples.at(-1);
    if (last && failed(last)) await sleep(250);
    const pick = Math.random();
    const account = accounts[Math.floor(Math.random() * accounts.length)]!;
    if (pick < 0.35) {
      const page = 1 + Math.floor(Math.random() * 5);
      await call(
        "list",
        "GET",
        `/api/users/aggregation?pagination=${encodeURIComponent(JSON.stringify({ page, pageSize: 20 }))}`,
        tokens.maker,
      );
    } else if (pick < 0.6) {
      const id = userIds[Math.floor(Math.random() * userIds.length)]!;
      await call("detail", "GET", `/api/users/${id}`, tokens.maker);
    } else if (pick < 0.8) {
      const { status, json } = await call(
        "top-up",
        "POST",
        "/api/top-up-transactions",
        tokens.maker,
        { accountNumber: account, amountSen: DIRECT_SEN, channel: "counter" },
        reason,
      );
      if (status === 201 && typeof json.reference === "string") {
        acknowledged.topUps.push(json.reference);
      }
    } else if (pick < 0.92) {
      const request = await call(
        "four-eyes top-up",
        "POST",
        "/api/top-up-transactions",
        tokens.maker,
        { accountNumber: account, amountSen: FOUR_EYES_SEN, channel: "counter" },
        reason,
      );
      const id = (request.json.changeRequest as { id?: number } | undefined)?.id;
      if (request.status === 202 && id) {
        const { status } = await call(
          "approval",
          "PATCH",
          `/api/change-requests/${id}`,
          tokens.approver,
          { action: "approve", remark: "Checked (bench)" },
        );
        if (status === 200) acknowledged.approvals.push(id);
      }
    } else {
      await call("login", "POST", "/api/auth/login", undefined, logins[n % logins.length]);
    }
  }
}

// ---- figures ------------------------------------------------------------------------------

function p99(values: number[]) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!;
}

/** A sample failed: no answer, or a 5xx (a 4xx is the API refusing a request, as it should). */
const failed = (s: Sample) => s.status === 0 || s.status >= 500;

function report(name: string, from: number, to: number) {
  // By when a request ended: a request in flight on an instance when it is killed belongs to
  // the kill, though it started in the phase before.
  const inPhase = samples.filter((s) => s.at + s.ms >= from && s.at + s.ms < to);
  const failures = inPhase.filter(failed);
  const byCode = new Map<string, number>();
  for (const s of failures) {
    const key = `${s.op} ${s.status} ${s.code ?? ""}`.trim().slice(0, 120);
    byCode.set(key, (byCode.get(key) ?? 0) + 1);
  }
  const refusals = inPhase.filter((s) => s.status >= 400 && s.status < 500);
  const refused = refusals.length;
  const refusedBy = new Map<string, number>();
  for (const s of refusals) {
    const key = `${s.op} ${s.status} ${s.code ?? ""}`.trim();
    refusedBy.set(key, (refusedBy.get(key) ?? 0) + 1);
  }
  console.log(
    `${name.padEnd(22)} ${String(inPhase.length).padStart(7)} requests  ${String(failures.length).padStart(5)} failed  ${String(refused).padStart(5)} refused (4xx)  p99 ${p99(
      inPhase.map((s) => s.ms),
    )
      .toFixed(0)
      .padStart(6)} ms  max ${Math.max(0, ...inPhase.map((s) => s.ms))
      .toFixed(0)
      .padStart(6)} ms`,
  );
  for (const [key, count] of byCode) console.log(`    failed: ${count} × ${key}`);
  for (const s of failures.filter((f) => f.status === 0)) {
    console.log(
      `    no answer at ${(s.at / 1000).toFixed(2)} s after ${s.ms.toFixed(0)} ms: ${s.op}`,
    );
  }
  for (const [key, count] of refusedBy) console.log(`    refused: ${count} × ${key}`);
  return { requests: inPhase.length, failed: failures.length };
}

// ---- the run ------------------------------------------------------------------------------

async function main() {
  for (const tool of ["haproxy"]) {
    try {
      execFileSync(tool, ["-v"], { stdio: "ignore" });
    } catch {
      throw new Error(`${tool} is missing: apt-get install ${tool}`);
    }
  }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const postgres = postgresServer(WORK, 55438);
  const restartable = !process.env.BENCH_DATABASE_URL;
  const databaseUrl = await postgresDatabase(postgres.url, "fleet", true);
  const env = {
    ...fleetEnv(databaseUrl),
    TRUST_PROXY: "loopback",
    STEP_UP_MINUTES: "600",
    DRAIN_NOTICE_MS: "2000",
    DRAIN_TIMEOUT_MS: "10000",
  };
  const instances: Instance[] = PORTS.map((port, i) => ({
    name: `wallet${i + 1}`,
    port,
    dataDir: join(WORK, `wallet${i + 1}`),
    log: "",
  }));
  let haproxy: ChildProcess | undefined;
  try {
    // The first instance migrates and seeds the demo campus; the others join it.
    launch(instances[0]!, env);
    const seeded = await untilReady(instances[0]!, 600_000);
    console.log(`wallet1 migrated, seeded and ready in ${(seeded / 1000).toFixed(1)} s`);
    for (const instance of instances.slice(1)) launch(instance, env);
    await Promise.all(instances.slice(1).map((instance) => untilReady(instance)));

    haproxy = spawn("haproxy", ["-f", join(ROOT, "deploy", "haproxy.cfg"), "-db"], {
      env: {
        ...process.env,
        FLEET_BIND: `127.0.0.1:${BALANCER}`,
        WALLET_1: `127.0.0.1:${PORTS[0]}`,
        WALLET_2: `127.0.0.1:${PORTS[1]}`,
        WALLET_3: `127.0.0.1:${PORTS[2]}`,
      },
      // Its log (one line per request, with how each ended) in the bench's folder.
      stdio: ["ignore", openSync(join(WORK, "haproxy.log"), "w"), "inherit"],
    });
    await sleep(2000);

    const logins = demoLogins(instances[0]!.log);
    const superAdmin = logins.get("super administrator")!;
    const approver = logins.get("second super administrator")!;
    const loginMix = ["user desk", "finance", "finance checker"].map((role) => logins.get(role)!);
    const tokens = { maker: await signIn(superAdmin), approver: await signIn(approver) };
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ account_number: string; id: number }>(
      `select u.account_number, u.id from users u join wallets w on w.user_id = u.id
        where w.status = 'active' and u.approval_status = 'approved' and w.balance_sen < 100000
        order by u.id limit 300`,
    );
    await client.end();
    const accounts = rows.map((r) => r.account_number);
    const userIds = rows.map((r) => r.id);
    console.log(
      `load: ${WORKERS} workers through HAProxy (127.0.0.1:${BALANCER}), ${accounts.length} wallets, phases of ${PHASE_MS / 1000} s\n`,
    );

    samples.length = 0;
    const load = Array.from({ length: WORKERS }, () => worker(tokens, loginMix, accounts, userIds));
    const phases: { name: string; from: number; to: number }[] = [];
    const phase = async (name: string, work: () => Promise<void>) => {
      const from = performance.now();
      await work();
      phases.push({ name, from, to: performance.now() });
    };

    await phase("steady", () => sleep(PHASE_MS));
    const readyAfterRestart: number[] = [];
    await phase("rolling restart", async () => {
      for (const instance of instances) {
        events.push(`${(performance.now() / 1000).toFixed(2)} SIGTERM ${instance.name}`);
        instance.child!.kill("SIGTERM");
        await exited(instance.child!);
        events.push(`${(performance.now() / 1000).toFixed(2)} exited ${instance.name}`);
        launch(instance, env);
        readyAfterRestart.push(await untilReady(instance));
        events.push(`${(performance.now() / 1000).toFixed(2)} ready ${instance.name}`);
        // HAProxy takes it back after two good checks (rise 2, inter 500 ms).
        await sleep(1500);
      }
    });
    let readyAfterKill = 0;
    await phase("kill -9", async () => {
      const victim = instances[1]!;
      victim.child!.kill("SIGKILL");
      await exited(victim.child!);
      await sleep(PHASE_MS / 3);
      launch(victim, env);
      readyAfterKill = await untilReady(victim);
      await sleep(1500);
    });
    const readyAfterDatabase: number[] = [];
    if (restartable) {
      await phase("PostgreSQL restart", async () => {
        postgres.stop();
        await sleep(10_000);
        postgres.start();
        readyAfterDatabase.push(...(await Promise.all(instances.map((i) => untilReady(i)))));
        await sleep(1500);
      });
    }
    await phase("after", () => sleep(PHASE_MS / 2));
    running = false;
    await Promise.all(load);

    console.log("phase                  requests   failed   refused          p99           max");
    let total = { requests: 0, failed: 0 };
    for (const { name, from, to } of phases) {
      const figures = report(name, from, to);
      total = {
        requests: total.requests + figures.requests,
        failed: total.failed + figures.failed,
      };
    }
    console.log(
      `\ntime to ready after a restart: ${readyAfterRestart.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}`,
    );
    console.log(`time to ready after kill -9: ${(readyAfterKill / 1000).toFixed(1)} s`);
    if (restartable) {
      console.log(
        `time to ready after PostgreSQL returned: ${readyAfterDatabase.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")} (target ≤ 5 s)`,
      );
    }

    // Nothing acknowledged is lost; every balance is its ledger's.
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const found = await check.query<{ n: string }>(
      "select count(*) as n from wallet_transactions where reference = any($1)",
      [acknowledged.topUps],
    );
    const applied = await check.query<{ n: string }>(
      "select count(*) as n from change_requests where id = any($1) and status = 'approved'",
      [acknowledged.approvals],
    );
    const drift = await check.query<{ n: string }>(
      `select count(*) as n from wallets w
        join lateral (select balance_after_sen from wallet_transactions t where t.user_id = w.user_id
                       order by t.id desc limit 1) last on true
        where w.balance_sen <> last.balance_after_sen`,
    );
    await check.end();
    console.log(
      `acknowledged top-ups found: ${found.rows[0]!.n} of ${acknowledged.topUps.length}; approvals applied: ${applied.rows[0]!.n} of ${acknowledged.approvals.length}; wallets whose balance is not their newest ledger row's: ${drift.rows[0]!.n}`,
    );
    console.log(`all phases: ${total.requests} requests, ${total.failed} failed`);
    console.log(`events: ${events.join("; ")}`);
    for (const instance of instances) {
      writeFileSync(join(WORK, `${instance.name}.log`), instance.log);
    }
    console.log(`HAProxy's and the instances' logs: ${WORK}`);
  } finally {
    running = false;
    haproxy?.kill("SIGTERM");
    for (const instance of instances) instance.child?.kill("SIGKILL");
    try {
      postgres.stop();
    } catch {
      // already stopped
    }
  }
}

await main();
