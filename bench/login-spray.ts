/**
 * Password-spraying benchmark (issue 16, item 3): the real server, a spray of failed logins from
 * one address (127.0.0.1), each at a different e-mail, and meanwhile a real login from another
 * loopback address (127.0.0.2). Prints a real login's time idle and during the spray, and how
 * the spray's attempts were answered; then a spray one attempt at a time, whose 429s are the
 * guard's own cost (its check in the database, and no hashing).
 *
 *   npm run bench:spray [-- --attempts 300 --concurrency 20 --sequential 60]
 */
import { request } from "node:http";

import { demoLogins, startServer } from "../tests/e2e/support/server";

const args = new Map(
  process.argv
    .slice(2)
    .flatMap((arg, i, all) => (arg.startsWith("--") ? [[arg.slice(2), all[i + 1]]] : [])),
);
const ATTEMPTS = Number(args.get("attempts") ?? 300);
const CONCURRENCY = Number(args.get("concurrency") ?? 20);
const SEQUENTIAL = Number(args.get("sequential") ?? 60);
const PORT = Number(process.env.BENCH_PORT ?? 8197);

const server = await startServer({ port: PORT });

/** One login from `localAddress`; resolves with the status and the milliseconds it took. */
function login(localAddress: string, body: object): Promise<{ status: number; ms: number }> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const call = request(
      {
        host: "127.0.0.1",
        port: PORT,
        localAddress,
        method: "POST",
        path: "/v1/api/auth/login",
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    call.on("error", reject);
    call.end(payload);
  });
}

let sprayed = 0;
/** One guess from the spraying address (127.0.0.1), at an e-mail of its own. */
async function guess(): Promise<{ status: number; ms: number }> {
  sprayed += 1;
  return login("127.0.0.1", { email: `spray.${sprayed}@wallet.example`, password: "Guess#1x" });
}

/** How many answers of each status, and how long they took (median, p95). */
function describeAnswers(answers: Array<{ status: number; ms: number }>): string {
  const byStatus = new Map<number, number[]>();
  for (const { status, ms } of answers) byStatus.set(status, [...(byStatus.get(status) ?? []), ms]);
  return [...byStatus]
    .map(([status, times]) => {
      times.sort((x, y) => x - y);
      const at = (p: number) => Math.round(times[Math.floor((times.length - 1) * p)] ?? 0);
      return `${times.length} × ${status} (median ${at(0.5)} ms, p95 ${at(0.95)} ms)`;
    })
    .join(", ");
}

try {
  const real = demoLogins(server.output()).get("super administrator");
  if (!real) throw new Error("the server printed no super administrator login");
  const idle: number[] = [];
  for (let i = 0; i < 3; i += 1) idle.push((await login("127.0.0.2", real)).ms);

  const sprayAnswers: Array<{ status: number; ms: number }> = [];
  const spray = Array.from({ length: CONCURRENCY }, async () => {
    while (sprayed < ATTEMPTS) sprayAnswers.push(await guess());
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const during: number[] = [];
  for (let i = 0; i < 3; i += 1) during.push((await login("127.0.0.2", real)).ms);
  await Promise.all(spray);

  // One at a time, so that each is checked against the failures counted in the database (the
  // concurrent spray's 429s are mostly the per-process cap of two logins under way).
  const oneByOne: Array<{ status: number; ms: number }> = [];
  for (let i = 0; i < SEQUENTIAL; i += 1) oneByOne.push(await guess());

  const fmt = (values: number[]) => values.map((ms) => `${Math.round(ms)} ms`).join(", ");
  console.log(`real login, idle:              ${fmt(idle)}`);
  console.log(`real login, during the spray:  ${fmt(during)}`);
  console.log(
    `spray of ${ATTEMPTS} attempts from one address (${CONCURRENCY} at a time): ` +
      describeAnswers(sprayAnswers),
  );
  console.log(`then ${SEQUENTIAL} one at a time: ${describeAnswers(oneByOne)}`);
  const worst = Math.max(...during);
  console.log(`goal: a real login ≤ 1000 ms during the spray: ${worst <= 1000 ? "met" : "MISSED"}`);
} finally {
  await server.stop();
}
