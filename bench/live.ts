/**
 * `npm run bench:live` (issue 35, Speed; docs/live-updates.md): 500 connected consoles over two
 * instances on one PostgreSQL, and a steady stream of changes committed straight to the database
 * (a business's fee rate, one statement each, as any writer would):
 * - p99 from commit to delivery, over every console entitled to see the change (target ≤ 1 s);
 * - the server's memory per connected console: each instance's resident memory with its consoles
 *   connected, less before, over the consoles it holds (target ≤ 50 kB);
 * - 100 changes a second sustained without falling behind (every entitled console got every
 *   change, the last within a second of the last commit).
 * Half the consoles are the demo's super administrator, half an administrator who may not read
 * businesses (entitled to nothing here: any event they get is a leak, counted).
 *
 * PostgreSQL: BENCH_DATABASE_URL, else a throwaway cluster (Debian's postgresql) on port 55439.
 * Options: --consoles 500, --rate 100 (changes a second), --seconds 20.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, mkdirSync, rmSync } from "node:fs";
import { request as httpRequest, Agent } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

import pg from "pg";

import { demoLogins } from "../tests/e2e/support/server";
import { fleetEnv, postgresDatabase, postgresServer } from "./support/postgres";

const { values: args } = parseArgs({
  options: {
    consoles: { type: "string", default: "500" },
    rate: { type: "string", default: "100" },
    seconds: { type: "string", default: "20" },
    /** The bench's second process: it commits the changes (see writeChanges). */
    writer: { type: "boolean", default: false },
  },
});
const CONSOLES = Number(args.consoles);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const ROOT = resolve(import.meta.dirname, "..");
const WORK = join(tmpdir(), "campus-wallet-bench", "live");
const PORTS = [19091, 19092];
const TARGET_P99_MS = 1000;
/** Connections committing the changes at once. */
const WRITERS = 4;
const TARGET_BYTES_PER_CONSOLE = 50 * 1024;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Instance {
  name: string;
  port: number;
  child?: ChildProcess;
  log: string;
}

function launch(instance: Instance, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      PORT: String(instance.port),
      DATA_DIR: join(WORK, instance.name),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (b: Buffer) => (instance.log += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (instance.log += b.toString()));
  instance.child = child;
}

async function untilReady(instance: Instance, timeoutMs = 600_000) {
  const started = performance.now();
  for (;;) {
    try {
      const answer = await fetch(`http://127.0.0.1:${instance.port}/v1/ready`);
      if (answer.status === 200) return performance.now() - started;
    } catch {
      // not yet
    }
    if (performance.now() - started > timeoutMs) {
      throw new Error(`${instance.name} not ready:\n${instance.log.slice(-3000)}`);
    }
    await sleep(100);
  }
}

/** Resident memory of a process, in bytes (Linux). */
function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function signIn(port: number, login: { email: string; password: string }) {
  const answer = await fetch(`http://127.0.0.1:${port}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(login),
  });
  if (answer.status !== 200) throw new Error(`login ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { token: string }).token;
}

interface Console {
  entitled: boolean;
  received: number;
  /** When each event of each business arrived (clock()), by business id, in order. */
  arrivals: Map<string, number[]>;
  connected: boolean;
}

/** Milliseconds on the machine's clock, comparable between the bench's two processes. */
const clock = () => performance.timeOrigin + performance.now();
let leaks = 0;

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });

function connect(port: number, token: string, entitled: boolean): Promise<Console> {
  const state: Console = { entitled, received: 0, connected: false, arrivals: new Map() };
  return new Promise((resolveConnected, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/v1/api/live/events",
        agent,
        headers: { authorization: token, accept: "text/event-stream" },
      },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream ${res.statusCode}`));
          return;
        }
        res.setEncoding("utf8");
        let buffer = "";
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.includes("event: ready") && !state.connected) {
              state.connected = true;
              resolveConnected(state);
            }
            const data = /^event: change\ndata: (.*)$/m.exec(block)?.[1];
            if (!data) continue;
            const change = JSON.parse(data) as { modules: string[]; ids: string[] | null };
            if (!change.modules.includes("businesses")) continue;
            if (!state.entitled) leaks += 1;
            const now = clock();
            for (const id of change.ids ?? []) {
              const times = state.arrivals.get(id) ?? [];
              times.push(now);
              state.arrivals.set(id, times);
            }
            state.received += 1;
          }
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** What the writer process reports when it is done. */
interface Written {
  committed: number;
  late: number;
  seconds: number;
  /** clock() of the last commit. */
  lastCommit: number;
  /** When each change of each business was sent (clock()), by business id, in order. */
  sentAt: Record<string, number[]>;
}

/**
 * The writer: RATE changes a second for SECONDS, over WRITERS connections. Change n goes to
 * business n mod count, and every business always to the same connection, whose statements wait
 * for one another: the changes of one business commit, and are announced, in the order they
 * were sent, so a console's k-th event of a business is that business's k-th change.
 */
async function writeChanges() {
  const pool = new pg.Pool({ connectionString: process.env.LIVE_BENCH_DATABASE_URL, max: WRITERS });
  const { rows } = await pool.query<{ id: string }>(
    "select id::text as id from businesses order by id",
  );
  const ids = rows.map((row) => row.id);
  const writers: pg.PoolClient[] = [];
  for (let w = 0; w < WRITERS; w += 1) writers.push(await pool.connect());
  console.log(
    `changing: ${RATE} business fee rates a second for ${SECONDS} s (${ids.length} businesses)`,
  );
  const sentAt: Record<string, number[]> = {};
  let committed = 0;
  let late = 0;
  const total = RATE * SECONDS;
  const started = performance.now();
  const queues = Array.from({ length: WRITERS }, () => Promise.resolve());
  for (let n = 0; n < total; n += 1) {
    const wait = started + (n * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    else if (wait < -100) late += 1;
    const index = n % ids.length;
    const id = ids[index]!;
    const w = index % WRITERS;
    queues[w] = queues[w]!.then(async () => {
      (sentAt[id] ??= []).push(clock());
      await writers[w]!.query(
        "update businesses set fee_rate_bp = (fee_rate_bp + 1) % 10000 where id = $1",
        [id],
      );
      committed += 1;
    });
  }
  await Promise.all(queues);
  const written: Written = {
    committed,
    late,
    seconds: (performance.now() - started) / 1000,
    lastCommit: clock(),
    sentAt,
  };
  for (const client of writers) client.release();
  await pool.end();
  process.send!(written);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function main() {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const postgres = postgresServer(WORK, 55439);
  const databaseUrl = await postgresDatabase(postgres.url, "live", true);
  const env = {
    ...fleetEnv(databaseUrl),
    SESSION_IDLE_MINUTES: "120",
  };
  const instances: Instance[] = PORTS.map((port, i) => ({ name: `wallet${i + 1}`, port, log: "" }));

  try {
    launch(instances[0]!, env);
    console.log(
      `wallet1 migrated, seeded, ready in ${((await untilReady(instances[0]!)) / 1000).toFixed(1)} s`,
    );
    launch(instances[1]!, env);
    await untilReady(instances[1]!);
    // The first instance's heap still holds the seeding: start it again, so that both measure
    // from an instance that only serves (the demo logins it printed are kept).
    const printed = instances[0]!.log;
    const first = instances[0]!.child!;
    first.kill("SIGTERM");
    await new Promise((done) => first.once("exit", done));
    launch(instances[0]!, env);
    await untilReady(instances[0]!);
    instances[0]!.log = printed + instances[0]!.log;
    const logins = demoLogins(instances[0]!.log);
    const superAdmin = logins.get("super administrator");
    if (!superAdmin) throw new Error(`no demo logins:\n${instances[0]!.log}`);
    // An administrator who may not read businesses: the demo's whose permissions lack code 4.
    let other: { token: string; name: string } | undefined;
    for (const [name, login] of logins) {
      if (name === "super administrator") continue;
      const token = await signIn(PORTS[0]!, login).catch(() => undefined);
      if (!token) continue;
      const me = (await (
        await fetch(`http://127.0.0.1:${PORTS[0]}/v1/api/account/admin`, {
          headers: { authorization: token },
        })
      ).json()) as { permissions?: number[]; isSuperAdmin?: boolean };
      if (!me.isSuperAdmin && !(me.permissions ?? []).includes(4)) {
        other = { token, name };
        break;
      }
    }
    if (!other) throw new Error("no demo administrator without the businesses' permission");
    const superToken = await signIn(PORTS[0]!, superAdmin);
    console.log(
      `consoles: ${CONSOLES} (half the super administrator, half "${other.name}", who may not read businesses)`,
    );

    await sleep(5000);
    const pids = instances.map((instance) => instance.child!.pid!);
    const before = pids.map(rss);
    const consoles: Console[] = [];
    for (let i = 0; i < CONSOLES; i += 25) {
      const batch = [];
      for (let j = i; j < Math.min(CONSOLES, i + 25); j += 1) {
        const entitled = j % 2 === 0;
        batch.push(connect(PORTS[j % 2]!, entitled ? superToken : other.token, entitled));
      }
      consoles.push(...(await Promise.all(batch)));
    }
    await sleep(3000);
    const after = pids.map(rss);
    const perConsole = pids.map((_, i) => (after[i]! - before[i]!) / (CONSOLES / 2));
    console.log(
      `memory: ${instances.map((instance, i) => `${instance.name} ${(before[i]! / 2 ** 20).toFixed(0)} → ${(after[i]! / 2 ** 20).toFixed(0)} MiB`).join(", ")}`,
    );
    console.log(
      `server memory per connected console: ${perConsole.map((b) => `${(b / 1024).toFixed(1)} kB`).join(", ")} (target ≤ ${TARGET_BYTES_PER_CONSOLE / 1024} kB)`,
    );

    // The changes come from a process of their own, so that reading 500 streams here does not
    // delay them (docs/live-updates.md).
    const writer = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "bench/live.ts",
        "--writer",
        "--rate",
        String(RATE),
        "--seconds",
        String(SECONDS),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, LIVE_BENCH_DATABASE_URL: databaseUrl },
        stdio: ["ignore", "inherit", "inherit", "ipc"],
      },
    );
    const written = await new Promise<Written>((done, fail) => {
      writer.once("message", (message) => done(message as Written));
      writer.once("exit", (code) => fail(new Error(`the writer exited with ${code}`)));
    });
    const { committed, late, seconds, sentAt } = written;
    const lastCommit = written.lastCommit;
    const achieved = committed / seconds;
    const entitled = consoles.filter((c) => c.entitled);
    const expected = committed;
    let caughtUp = Number.NaN;
    for (;;) {
      if (entitled.every((c) => c.received >= expected)) {
        caughtUp = clock() - lastCommit;
        break;
      }
      if (clock() - lastCommit > 30_000) break;
      await sleep(20);
    }
    const got = entitled.reduce((sum, c) => sum + c.received, 0);
    // A console's k-th event of a business is that business's k-th change (see writeChanges).
    const latencies: number[] = [];
    for (const console of entitled) {
      for (const [id, times] of console.arrivals) {
        const sent = sentAt[id] ?? [];
        times.forEach((at, k) => {
          if (sent[k] !== undefined) latencies.push(at - sent[k]);
        });
      }
    }
    console.log(
      `committed ${committed} changes at ${achieved.toFixed(1)}/s, ${WRITERS} writers, one statement each (${late} sent over 100 ms late by the bench)`,
    );
    console.log(
      `delivered ${got} of ${expected * entitled.length} (every entitled console × every change); ` +
        `the last console caught up ${Number.isNaN(caughtUp) ? "NEVER (30 s)" : `${caughtUp.toFixed(0)} ms`} after the last commit`,
    );
    console.log(
      `commit → delivery: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${percentile(latencies, 100).toFixed(0)} ms over ${latencies.length} deliveries (target p99 ≤ ${TARGET_P99_MS} ms)`,
    );
    console.log(`events of businesses sent to consoles that may not read them: ${leaks}`);
    console.log(
      `instances' memory at the end: ${pids.map((pid) => `${(rss(pid) / 2 ** 20).toFixed(0)} MiB`).join(", ")}`,
    );
  } finally {
    agent.destroy();
    for (const instance of instances) instance.child?.kill("SIGKILL");
    try {
      postgres.stop();
    } catch {
      // already stopped
    }
  }
}

if (args.writer) await writeChanges();
else await main();
process.exit(0);
