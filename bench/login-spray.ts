/**
 * Password-spraying benchmark (issue 16, item 3): the real server, a spray of failed logins from
 * one address (127.0.0.1), each at a different e-mail, and meanwhile a real login from another
 * loopback address (127.0.0.2). Prints a real login's time idle and during the spray, and how
 * the spray's attempts were answered.
 *
 *   npm run bench:spray [-- --attempts 300 --concurrency 20]
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

try {
  const real = demoLogins(server.output()).get("super administrator");
  if (!real) throw new Error("the server printed no super administrator login");
  const idle: number[] = [];
  for (let i = 0; i < 3; i += 1) idle.push((await login("127.0.0.2", real)).ms);

  const statuses = new Map<number, number>();
  let next = 0;
  const spray = Array.from({ length: CONCURRENCY }, async () => {
    while (next < ATTEMPTS) {
      const i = (next += 1);
      const { status } = await login("127.0.0.1", {
        email: `spray.${i}@wallet.example`,
        password: `Guess#${i}x`,
      });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const during: number[] = [];
  for (let i = 0; i < 3; i += 1) during.push((await login("127.0.0.2", real)).ms);
  await Promise.all(spray);

  const fmt = (values: number[]) => values.map((ms) => `${Math.round(ms)} ms`).join(", ");
  console.log(`real login, idle:              ${fmt(idle)}`);
  console.log(`real login, during the spray:  ${fmt(during)}`);
  console.log(
    `spray of ${ATTEMPTS} attempts from one address (${CONCURRENCY} at a time): ` +
      [...statuses].map(([status, n]) => `${n} × ${status}`).join(", "),
  );
  const worst = Math.max(...during);
  console.log(`goal: a real login ≤ 1000 ms during the spray: ${worst <= 1000 ? "met" : "MISSED"}`);
} finally {
  await server.stop();
}
