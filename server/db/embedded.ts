import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Worker } from "node:worker_threads";

/** The embedded store's PostgreSQL files live here, beside the lock and the JWT secret. */
export const PGLITE_SUBDIR = "pglite";

const SOCKET_PORT = 5432;
const SOCKET_NAME = `.s.PGSQL.${SOCKET_PORT}`;
/** sun_path is 108 bytes on Linux (104 on macOS); keep a margin. */
const MAX_SOCKET_PATH = 100;

export interface EmbeddedServer {
  /** `pg` connection settings: a unix-socket directory and the port that names the socket. */
  host: string;
  port: number;
  stop(): Promise<void>;
}

type WorkerMessage = { type: "ready" } | { type: "closed" } | { type: "error"; message: string };

function nextMessage(worker: Worker): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (message: WorkerMessage) => {
      cleanup();
      resolve(message);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`The embedded database stopped unexpectedly (exit code ${code})`));
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
  });
}

/** Node's WebAssembly global, which the server's type libraries (no DOM) leave undeclared. */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> };
/** A compiled WebAssembly module, opaque here: it is only handed to the worker. */
type CompiledWasm = object;

let pgliteWasm: Promise<CompiledWasm> | undefined;

/**
 * PGlite's WebAssembly, compiled once by the process and handed to each worker it starts: a worker
 * left to compile it itself spent ~0.65 s of CPU opening a store instead of ~0.35 s. A server
 * opens its store once; the test suites open one per file, and a test may reopen it.
 */
function compiledPglite(): Promise<CompiledWasm> {
  pgliteWasm ??= readFile(
    join(dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite")), "pglite.wasm"),
  ).then((bytes) => WebAssembly.compile(bytes));
  return pgliteWasm;
}

/**
 * Starts PGlite on `dataDir/pglite` in a worker thread, serving the PostgreSQL protocol on a unix
 * socket. The caller must hold the DATA_DIR lock. `onCrash` is told if the worker dies on its own.
 */
export async function startEmbeddedServer(
  dataDir: string,
  onCrash: (error: Error) => void,
): Promise<EmbeddedServer> {
  const pgDataDir = join(dataDir, PGLITE_SUBDIR);
  mkdirSync(pgDataDir, { recursive: true });

  const inDataDir = join(dataDir, SOCKET_NAME).length <= MAX_SOCKET_PATH;
  const socketDir = inDataDir ? dataDir : mkdtempSync(join(tmpdir(), "wallet-pg-"));
  const socketPath = join(socketDir, SOCKET_NAME);
  // A socket file left by a process that was killed; we hold the lock, so it is not in use.
  rmSync(socketPath, { force: true });

  const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), {
    // The server's pool uses one connection; a little headroom lets a dropped connection be
    // replaced before the socket server has noticed the old one is gone.
    workerData: {
      pgDataDir,
      socketPath,
      maxConnections: 4,
      pgliteWasmModule: await compiledPglite(),
    },
    // The worker runs plain JavaScript; the parent's loader flags (tsx) are not needed there.
    execArgv: [],
  });
  let stopping = false;

  const ready = await nextMessage(worker).catch((error: Error) => ({
    type: "error" as const,
    message: error.message,
  }));
  if (ready.type !== "ready") {
    await worker.terminate();
    if (!inDataDir) rmSync(socketDir, { recursive: true, force: true });
    throw new Error(
      `Could not open the embedded database in ${pgDataDir}: ${"message" in ready ? ready.message : ready.type}`,
    );
  }

  worker.on("error", (error) => {
    if (!stopping) onCrash(error);
  });
  worker.on("exit", (code) => {
    if (!stopping) onCrash(new Error(`The embedded database stopped unexpectedly (code ${code})`));
  });

  return {
    host: socketDir,
    port: SOCKET_PORT,
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      worker.postMessage({ type: "close" });
      const closed = await Promise.race([
        nextMessage(worker).catch(() => undefined),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 15_000).unref()),
      ]);
      if (!closed) await worker.terminate();
      await exited;
      rmSync(socketPath, { force: true });
      if (!inDataDir) rmSync(socketDir, { recursive: true, force: true });
    },
  };
}
