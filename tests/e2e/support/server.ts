/**
 * Starts the real reference server (the same `server/main.ts` that `npm start` runs) on its own
 * port and data directory, for browser tests and benchmarks. The built console (`dist/`) must
 * exist; `npm run test:e2e` builds it first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

import { copyInto, SCRATCH_DIR } from "../../support/scratch";

export interface RunningServer {
  url: string;
  /** The server's process id. */
  pid: number;
  dataDir: string;
  output: () => string;
  stop: (options?: { keepData?: boolean }) => Promise<void>;
}

export interface ServerOptions {
  port: number;
  env?: Record<string, string>;
  dataDir?: string;
}

/**
 * The variables a server may be given and still start from the run's seeded template (see
 * ./global-setup.ts): none of them shapes what the first start seeds (server/seed reads the demo
 * accounts, the bootstrap administrator, NODE_ENV, SECOND_FACTOR_KEY and SUPPORT_EMAIL; a spec
 * that wants another support contact stores it as the Global setting, see session-errors).
 */
const TEMPLATE_SAFE_ENV = new Set([
  "DIST_DIR",
  "JWT_TTL",
  "RECAPTCHA_SECRET",
  "RECAPTCHA_VERIFY_URL",
  "SMTP_URL",
]);

/**
 * A new DATA_DIR: a copy of the run's migrated and seeded template when there is one and `env`
 * would seed the same (a start then takes ~2 s instead of seeding for 10-15 s), else empty.
 */
function newDataDir(env: Record<string, string>): string {
  const dir = mkdtempSync(join(SCRATCH_DIR, "wallet-e2e-"));
  const template = process.env.E2E_TEMPLATE_DIR;
  if (template && Object.keys(env).every((name) => TEMPLATE_SAFE_ENV.has(name))) {
    copyInto(template, dir);
  }
  return dir;
}

export async function startServer({
  port,
  env = {},
  dataDir,
}: ServerOptions): Promise<RunningServer> {
  const dir = dataDir ?? newDataDir(env);
  let log = "";
  // As `npm start` runs it (package.json; the README says why the young generation is larger).
  const args = ["--max-semi-space-size=64", "--import", "tsx", "server/main.ts"];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      // A spec signs in through the API once and may act for longer than the default 5 minutes
      // on a busy machine; the step-up story makes its session's proof older than this.
      STEP_UP_MINUTES: "60",
      // Password hashes at the lowest cost allowed outside production (server/config.ts).
      PASSWORD_HASH_COST: "10",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (b: Buffer) => (log += b.toString()));
  child.stderr?.on("data", (b: Buffer) => (log += b.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const url = `http://127.0.0.1:${port}`;
  // A first start migrates and seeds (10-15 s idle); E2E_SERVER_START_MS for a crowded machine.
  const deadline = Date.now() + Number(process.env.E2E_SERVER_START_MS ?? 90_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/v1/health`);
      // Healthy, and this child's own server: a stray one left on the port (a killed run's)
      // answers health too, while this child fails to listen and exits.
      if (res.ok && log.includes("UCSI Wallet console:")) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    pid: child.pid!,
    dataDir: dir,
    output: () => log,
    stop: async ({ keepData = false } = {}) => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepData) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Parses the demo logins the server prints at start: `<role>: <email> / <password>`. */
export function demoLogins(output: string): Map<string, { email: string; password: string }> {
  const logins = new Map<string, { email: string; password: string }>();
  for (const m of output.matchAll(/^([a-z -]+): (\S+@\S+) \/ (\S+)$/gm)) {
    logins.set(m[1]!, { email: m[2]!, password: m[3]! });
  }
  return logins;
}

/** Signs in as the super administrator the server printed at start: that login and its token. */
export async function signInSuperAdmin(server: RunningServer) {
  const superAdmin = demoLogins(server.output()).get("super administrator");
  if (!superAdmin) throw new Error(`no demo logins printed:\n${server.output()}`);
  const answer = await fetch(`${server.url}/v1/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(superAdmin),
  });
  if (!answer.ok) throw new Error(`login failed: ${answer.status} ${await answer.text()}`);
  const { token } = (await answer.json()) as { token: string };
  return { superAdmin, token };
}

/**
 * The server for a spec that signs in as the super administrator: started on `port` (serving
 * DIST_DIR when set), with the demo login it printed and that administrator's API token.
 */
export async function startWithSuperAdmin(port: number) {
  const server = await startServer({
    port,
    env: process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {},
  });
  return { server, ...(await signInSuperAdmin(server)) };
}
