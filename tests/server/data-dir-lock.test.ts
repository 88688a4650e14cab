/**
 * Issue 16, item 8: the embedded store's DATA_DIR lock names its holder exactly, so it neither
 * goes stale behind a reused pid (a restarted container's server runs under the pid of the one
 * that died) nor lets a second live process in.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync, utimesSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  acquireDataDirLock,
  DataDirLockedError,
  describeHolder,
  type LockHolder,
} from "../../server/db/lock";

let dir: string;
let lockFile: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ucsi-wallet-lock-"));
  lockFile = join(dir, "server.lock");
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const writeHolder = (holder: LockHolder) => writeFile(lockFile, `${JSON.stringify(holder)}\n`);
const ageLockFile = (ms: number) => {
  const then = new Date(Date.now() - ms);
  utimesSync(lockFile, then, then);
};
/** A lock file from `pid` in another pid namespace (another container), as that one wrote it. */
const foreignHolder = (pid: number): LockHolder => ({
  ...describeHolder(pid, "f".repeat(32)),
  host: "another-container",
  pidNamespace: "pid:[1]",
  startTime: "42",
});

const hasProc = describeHolder(process.pid).startTime !== undefined;

describe("the DATA_DIR lock", () => {
  it("takes over a lock left by a process that is gone, and releases its own", async () => {
    // A pid far above any pid_max: no such process (the bare pid an earlier version wrote).
    await writeFile(lockFile, "2147483646\n");
    const lock = await acquireDataDirLock(dir);
    await expect(acquireDataDirLock(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
    (await acquireDataDirLock(dir)).release();
  });

  it.runIf(hasProc)(
    "takes over a lock whose pid now belongs to another process (a restarted container)",
    async () => {
      // The dead holder had this very pid, but started at another time.
      await writeHolder({ ...describeHolder(process.pid, "d".repeat(32)), startTime: "1" });
      const lock = await acquireDataDirLock(dir);
      const holder = JSON.parse(await readFile(lockFile, "utf8")) as LockHolder;
      expect(holder.startTime).toBe(describeHolder(process.pid).startTime);
      expect(holder.token).not.toBe("d".repeat(32));
      lock.release();
    },
  );

  it.runIf(hasProc)("refuses a lock held by another live process, naming it", async () => {
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const pid = other.pid!;
      await writeHolder(describeHolder(pid, "e".repeat(32)));
      await expect(acquireDataDirLock(dir)).rejects.toThrow(
        `DATA_DIR ${dir} is in use by another process (pid ${pid})`,
      );
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("takes over at once a lock from another pid namespace whose heartbeat has lapsed", async () => {
    await writeHolder(foreignHolder(1));
    ageLockFile(60_000);
    const started = Date.now();
    const lock = await acquireDataDirLock(dir);
    expect(Date.now() - started).toBeLessThan(1_000);
    lock.release();
  });

  it("waits out a fresh heartbeat from another pid namespace, then takes the lock", async () => {
    await writeHolder(foreignHolder(1));
    const started = Date.now();
    const lock = await acquireDataDirLock(dir, { heartbeatMs: 100, staleAfterMs: 600 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    lock.release();
  });

  it("refuses a lock from another pid namespace whose holder keeps beating", async () => {
    await writeHolder(foreignHolder(1));
    const beat = setInterval(() => ageLockFile(0), 50);
    try {
      await expect(
        acquireDataDirLock(dir, { heartbeatMs: 100, staleAfterMs: 400 }),
      ).rejects.toThrow("is in use by another process (pid 1 on another-container)");
    } finally {
      clearInterval(beat);
    }
  });

  it("beats while held, and tells its holder when another process took it over", async () => {
    const lost: Error[] = [];
    const lock = await acquireDataDirLock(dir, {
      heartbeatMs: 50,
      onLost: (error) => lost.push(error),
    });
    ageLockFile(60_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Date.now() - statSync(lockFile).mtimeMs).toBeLessThan(1_000);
    await writeHolder(foreignHolder(7));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lost.map((error) => error.message)).toEqual([
      `The lock ${lockFile} was taken over by another process`,
    ]);
    lock.release();
    // Not its lock any more: release leaves the other holder's file alone.
    expect(existsSync(lockFile)).toBe(true);
  });
});
