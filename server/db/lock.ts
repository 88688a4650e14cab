import { randomBytes } from "node:crypto";
import {
  linkSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * PGlite has no cross-process lock: a second process on the same data directory silently loses
 * its writes. This lock file makes a second opener fail loudly instead.
 *
 * A pid alone does not say who holds it: a container restarted after a crash runs its server
 * under the same pid (often 1) as the one that died, and a pid from another container's pid
 * namespace means nothing here. So the file names its holder exactly: pid, the process's start
 * time (/proc/<pid>/stat), the kernel's boot id, the pid namespace, the host and a random token,
 * and the holder touches it every few seconds (a heartbeat). Whether the holder still lives:
 * - same boot and pid namespace (Linux): that pid runs and started at the recorded time; so a
 *   reused pid is not mistaken for the holder, and a lock left by a crash is taken over at once;
 * - another pid namespace, boot or host (a restarted container, a volume two containers share),
 *   or no /proc: its heartbeat is fresh. A fresh one is waited out up to `staleAfterMs`, so a
 *   restarted container starts once the dead holder's heartbeat has lapsed, while a live holder
 *   elsewhere keeps its lock.
 * The file appears with its whole content (written aside, then hard-linked into place), and the
 * holder checks its token on every heartbeat: if the file was taken over, it is told (`onLost`).
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    where = "",
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${holderPid}${where}). ` +
        `Stop that process first, or point DATA_DIR at another directory.`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

export interface DataDirLockOptions {
  /** How often the holder touches the file (default 3 s). */
  heartbeatMs?: number;
  /** A heartbeat older than this is a dead holder's (default 15 s). */
  staleAfterMs?: number;
  /** The file no longer names this holder (another process took it over). */
  onLost?: (error: Error) => void;
}

/** Who holds the lock, as written in the file. */
export interface LockHolder {
  pid: number;
  token?: string;
  host?: string;
  bootId?: string;
  pidNamespace?: string;
  /** Clock ticks after boot when the process started (field 22 of /proc/<pid>/stat). */
  startTime?: string;
}

const LOCK_FILE = "server.lock";

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

const bootId = readText("/proc/sys/kernel/random/boot_id")?.trim();
const pidNamespace = (() => {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return undefined;
  }
})();

/** When process `pid` started (field 22 of /proc/<pid>/stat), or undefined if there is none. */
function startTimeOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ")".
  const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields?.[19];
}

/** How this machine describes process `pid` as a holder (tests write such records). */
export function describeHolder(pid: number, token?: string): LockHolder {
  return { pid, token, host: hostname(), bootId, pidNamespace, startTime: startTimeOf(pid) };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The file's holder; a bare pid is a lock written by an earlier version. */
function parseHolder(text: string): LockHolder | undefined {
  const trimmed = text.trim();
  if (/^[1-9][0-9]*$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const holder = JSON.parse(trimmed) as LockHolder;
    return Number.isSafeInteger(holder.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
}

type Verdict = "alive" | "heartbeat" | "stale";

/** Whether `holder` lives: "heartbeat" when only its heartbeat can tell (it is fresh). */
function judge(holder: LockHolder, beatAgeMs: number, staleAfterMs: number): Verdict {
  const beating = beatAgeMs < staleAfterMs;
  if (holder.token === undefined) return pidAlive(holder.pid) ? "alive" : "stale";
  const here = describeHolder(process.pid);
  if (here.startTime && holder.bootId === bootId && holder.pidNamespace === pidNamespace) {
    return holder.startTime !== undefined && startTimeOf(holder.pid) === holder.startTime
      ? "alive"
      : "stale";
  }
  if (!here.pidNamespace && holder.host === here.host && !pidAlive(holder.pid)) return "stale";
  return beating ? "heartbeat" : "stale";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Puts `content` in place as `file` in one step, or returns false if `file` exists. */
function createWhole(file: string, content: string, token: string): boolean {
  const draft = `${file}.${token}.new`;
  writeFileSync(draft, content, { mode: 0o644 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Removes the stale lock `seen`, unless another process replaced it in the meantime. */
function removeStale(file: string, seen: string, token: string) {
  const aside = `${file}.${token}.stale`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (readText(aside) !== seen) {
    // A fresh lock was moved aside: put it back (unless yet another has appeared).
    try {
      linkSync(aside, file);
    } catch {
      // Its owner learns of the loss at its next heartbeat.
    }
  }
  rmSync(aside, { force: true });
}

/**
 * Takes the lock on `dataDir` (which must exist), or throws DataDirLockedError. A holder known
 * only by its heartbeat is waited out for up to `staleAfterMs` before giving up.
 */
export async function acquireDataDirLock(
  dataDir: string,
  options: DataDirLockOptions = {},
): Promise<DataDirLock> {
  const heartbeatMs = options.heartbeatMs ?? 3_000;
  const staleAfterMs = options.staleAfterMs ?? 15_000;
  const file = join(dataDir, LOCK_FILE);
  const token = randomBytes(16).toString("hex");
  const giveUpAt = Date.now() + staleAfterMs + heartbeatMs;

  for (;;) {
    if (createWhole(file, `${JSON.stringify(describeHolder(process.pid, token))}\n`, token)) break;
    const seen = readText(file);
    const beatAgeMs = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    if (seen === undefined) continue;
    const holder = parseHolder(seen);
    // Unreadable: a file cut short long ago is stale; a young one is still being written.
    const verdict = holder
      ? judge(holder, beatAgeMs, staleAfterMs)
      : beatAgeMs > 2_000
        ? "stale"
        : "heartbeat";
    if (verdict === "stale") {
      removeStale(file, seen, token);
      continue;
    }
    if (verdict === "alive" || Date.now() >= giveUpAt) {
      const where = holder?.host && holder.host !== hostname() ? ` on ${holder.host}` : "";
      throw new DataDirLockedError(dataDir, holder?.pid ?? 0, where);
    }
    await sleep(Math.min(heartbeatMs, 1_000));
  }

  const heartbeat = setInterval(() => {
    if (parseHolder(readText(file) ?? "")?.token !== token) {
      clearInterval(heartbeat);
      options.onLost?.(new Error(`The lock ${file} was taken over by another process`));
      return;
    }
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch (error) {
      clearInterval(heartbeat);
      options.onLost?.(error as Error);
    }
  }, heartbeatMs).unref();

  let released = false;
  const releaseOnExit = () => release();
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off("exit", releaseOnExit);
    if (parseHolder(readText(file) ?? "")?.token === token) rmSync(file, { force: true });
  };
  process.on("exit", releaseOnExit);
  return { file, release };
}
