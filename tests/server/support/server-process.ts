/** `npm start`'s server process, started as a child for the tests that need a real process. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** `npm start`'s command after the console's build: what a deployment's process manager runs. */
const START = (
  JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start.replace(/^vite build && /, "");

export interface Run {
  exit: Promise<number | null>;
  output: () => string;
  waitFor: (text: string, timeoutMs?: number) => Promise<void>;
  kill: (signal: NodeJS.Signals) => void;
}

/**
 * Starts `npm start`'s server process (without the console build) with exactly `env`, through
 * the shell as npm does; the script `exec`s node, so a signal (SIGTERM's drain, SIGKILL's crash)
 * reaches the server itself.
 */
export function startServer(env: Record<string, string>): Run {
  const child = spawn("sh", ["-c", START], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    exit,
    output: () => output,
    kill: (signal) => child.kill(signal),
    waitFor: (text, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`Timed out waiting for "${text}"; output:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        void exit.then(() => {
          if (!output.includes(text)) {
            clearTimeout(timer);
            reject(new Error(`Exited before "${text}"; output:\n${output}`));
          }
        });
        check();
      }),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * The server process on `env` (its PORT), started and answering, with the super administrator
 * signed in: what a crash test works with.
 */
export async function startSignedIn(
  env: Record<string, string>,
  credentials: { email: string; password: string },
): Promise<{ run: Run; base: string; token: string }> {
  const run = startServer(env);
  await run.waitFor("banned administrator: ", 90_000);
  const base = `http://127.0.0.1:${env.PORT}/v1`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  return { run, base, token: ((await login.json()) as { token: string }).token };
}

/**
 * Sends `queue` through `send`, `inFlight` at a time, and kills `run` with SIGKILL as soon as
 * `killAfter` calls were acknowledged (200) while others are still on their way. A call whose
 * connection died with the process is not acknowledged: nothing is promised for it. A refusal is
 * kept as words (the loop cannot throw: a dying connection rejects too).
 */
export async function killMidStream<T>(
  run: Run,
  queue: T[],
  options: {
    send: (call: T) => Promise<Response>;
    named: (call: T) => string;
    killAfter: number;
    inFlight: number;
  },
) {
  const acknowledged: T[] = [];
  const refusals: string[] = [];
  let killed = false;
  let inFlight = 0;
  let killedWithInFlight = 0;
  const worker = async () => {
    for (let call = queue.shift(); call !== undefined && !killed; call = queue.shift()) {
      inFlight += 1;
      try {
        const response = await options.send(call);
        if (response.status === 200) acknowledged.push(call);
        else refusals.push(`${options.named(call)}: ${response.status} ${await response.text()}`);
      } catch {
        // The connection died with the process.
      } finally {
        inFlight -= 1;
      }
      if (!killed && acknowledged.length >= options.killAfter && inFlight > 0) {
        killed = true;
        killedWithInFlight = inFlight;
        run.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, worker));
  return { acknowledged, refusals, killed, killedWithInFlight };
}
