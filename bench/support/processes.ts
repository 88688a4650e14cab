/** CPU time of processes, read from /proc (Linux), for the benchmarks' CPU per request. */
import { readdirSync, readFileSync } from "node:fs";

/** CPU seconds (user and system) the processes have used so far, read from /proc (Linux). */
export function cpuSeconds(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      // gone, or not Linux
    }
  }
  return total;
}
const CLOCK_TICKS = 100;

/** A process and its children (a PostgreSQL postmaster and its backends). */
export function withChildren(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      if (Number(fields[1]) === pid) children.push(Number(entry));
    } catch {
      // gone
    }
  }
  return [pid, ...children];
}
