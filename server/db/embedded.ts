import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
    workerData: { pgDataDir, socketPath, maxConnections: 4 },
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
