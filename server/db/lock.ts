import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite has no cross-process lock: a second process on the same data directory silently loses
 * its writes. This lock file (created with O_EXCL, holding the owner's pid) makes a second opener
 * fail loudly instead. A lock whose pid is no longer alive is stale and taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${holderPid}). ` +
        `Stop that process first, or point DATA_DIR at another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

const LOCK_FILE = "server.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Takes the lock on `dataDir` (which must exist) or throws DataDirLockedError. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readHolder(file);
      if (holder !== undefined && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
      // Stale (dead holder, or a file left half-written): move it aside atomically, then retry.
      try {
        const aside = `${file}.stale-${process.pid}`;
        renameSync(file, aside);
        rmSync(aside, { force: true });
      } catch (renameError) {
        if ((renameError as NodeJS.ErrnoException).code !== "ENOENT") throw renameError;
      }
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    const releaseOnExit = () => release();
    const release = () => {
      if (released) return;
      released = true;
      process.off("exit", releaseOnExit);
      if (readHolder(file) === process.pid) rmSync(file, { force: true });
    };
    process.on("exit", releaseOnExit);
    return { file, release };
  }
  throw new Error(`Could not take the lock ${file}`);
}
