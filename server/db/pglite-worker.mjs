// Runs the embedded PGlite database in its own thread and serves it over the PostgreSQL wire
// protocol on a unix socket, so that queries never block the HTTP server's event loop and the
// server talks to it with `pg` exactly as it talks to PostgreSQL in production.
// Plain JavaScript on purpose: a worker thread does not inherit the TypeScript loader under every
// runner (tsx, vitest), and this file needs none.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** @type {{ pgDataDir: string, socketPath: string, maxConnections: number, pgliteWasmModule: WebAssembly.Module }} */
const { pgDataDir, socketPath, maxConnections, pgliteWasmModule } = workerData;

if (!parentPort) throw new Error("pglite-worker.mjs must run as a worker thread");
const port = parentPort;

let db;
let server;
try {
  // Extensions the migrations create must be loaded here (PGlite bundles them, off by default).
  // A checkpoint once 64 MB of WAL is written, and at most that much kept for reuse: with
  // PostgreSQL's defaults (80 MB / 1 GB) a seeded store kept ~465 MB of recycled WAL segments
  // beside ~55 MB of data, which every copy of a data directory carried.
  db = await PGlite.create(pgDataDir, {
    extensions: { pg_trgm },
    // Compiled once by the process that starts this worker (embedded.ts).
    pgliteWasmModule,
    startParams: [
      ...PGlite.defaultStartParams,
      ...["-c", "min_wal_size=32MB", "-c", "max_wal_size=64MB"],
    ],
  });
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections });
  await server.start();
  port.postMessage({ type: "ready" });
} catch (error) {
  port.postMessage({
    type: "error",
    message: error instanceof Error ? error.message : String(error),
  });
  await db?.close().catch(() => undefined);
  port.close();
}

port.on("message", async (message) => {
  if (message?.type !== "close") return;
  try {
    await server?.stop();
    await db?.close();
    port.postMessage({ type: "closed" });
  } catch (error) {
    port.postMessage({
      type: "error",
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    port.close();
  }
});
