/**
 * One autocannon load, run as its own process (so it does not share a CPU loop with the server's
 * probes or with another load): `node --import tsx bench/support/cannon.ts < <LoadSpec as JSON>`
 * (on stdin: 20,000 bodies are too long for a command line). Prints the Measured result as JSON. A spec with `bodies` sends them in turn (one body a
 * request, across all connections); with `collectIds` it also lists the `id` of every 201 answer.
 */
import { text } from "node:stream/consumers";

import autocannon from "autocannon";

import type { LoadSpec, Measured } from "./load";

const spec = JSON.parse(await text(process.stdin)) as LoadSpec;
const ids: number[] = [];
let next = 0;
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  overallRate: spec.rate,
  headers: { ...spec.headers, ...(spec.bodies ? { "content-type": "application/json" } : {}) },
  requests: [
    {
      method: spec.bodies ? "POST" : "GET",
      setupRequest: (request) =>
        spec.bodies ? { ...request, body: spec.bodies[next++ % spec.bodies.length] } : request,
      onResponse: spec.collectIds
        ? (status, body) => {
            if (status === 201) ids.push((JSON.parse(body) as { id: number }).id);
          }
        : undefined,
    },
  ],
});
const measured: Measured = {
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  failures: result.errors + result.timeouts + result.non2xx,
  statuses: Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  ),
  ...(spec.collectIds ? { ids } : {}),
};
process.stdout.write(JSON.stringify(measured));
