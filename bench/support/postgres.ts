/**
 * PostgreSQL for the scale benchmarks: BENCH_DATABASE_URL, or a throwaway cluster from Debian's
 * postgresql package (/usr/lib/postgresql/<version>/bin) under the bench's work folder, and one
 * database per seeded store on it.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

import { withChildren } from "./processes";

export interface PostgresServer {
  url: string;
  /** The cluster's processes (postmaster and backends); none for BENCH_DATABASE_URL. */
  processes: () => number[];
  stop: () => void;
  /** Starts the cluster again after `stop` (none for BENCH_DATABASE_URL). */
  start: () => void;
}

/**
 * BENCH_DATABASE_URL (a server whose user may create databases), or a cluster in `dir`/postgres-
 * <version> on `port`, with shared_buffers=1GB, created on first use and started now; `stop`
 * stops it. As root, its commands run as the postgres user. The server reaches its own cluster
 * through the cluster's Unix socket, as a server on PostgreSQL's host would: loopback TCP costs
 * the server's process a TCP send and receive per statement (list page 1: 890–970 requests a
 * second over TCP, 1,040–1,080 over the socket, the same queries).
 */
export function postgresServer(dir: string, port: number): PostgresServer {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) {
    return { url: given, processes: () => [], stop: () => undefined, start: () => undefined };
  }
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql") : [];
  const version = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!version) {
    throw new Error("No PostgreSQL: set BENCH_DATABASE_URL or install Debian's postgresql package");
  }
  const bin = `/usr/lib/postgresql/${version}/bin`;
  const cluster = join(dir, `postgres-${version}`);
  const asPostgres = process.getuid?.() === 0;
  const run = (command: string, commandArgs: string[]) =>
    asPostgres
      ? execFileSync("runuser", ["-u", "postgres", "--", `${bin}/${command}`, ...commandArgs])
      : execFileSync(`${bin}/${command}`, commandArgs);
  mkdirSync(cluster, { recursive: true });
  if (asPostgres) execFileSync("chown", ["postgres", cluster]);
  if (!existsSync(join(cluster, "data", "PG_VERSION"))) {
    run("initdb", ["-D", join(cluster, "data"), "-U", "postgres", "-A", "trust"]);
  }
  const start = () =>
    run("pg_ctl", [
      "-D",
      join(cluster, "data"),
      "-l",
      join(cluster, "log"),
      "-w",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${cluster} -c shared_buffers=1GB`,
      "start",
    ]);
  start();
  const postmaster = () =>
    Number(readFileSync(join(cluster, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  return {
    url: `postgres://postgres@${encodeURIComponent(cluster)}:${port}/postgres`,
    processes: () => withChildren(postmaster()),
    stop: () => run("pg_ctl", ["-D", join(cluster, "data"), "-m", "fast", "stop"]),
    start: () => void start(),
  };
}

/** The URL of database `name` on the bench server, created if missing (or again when `fresh`). */
export async function postgresDatabase(serverUrl: string, name: string, fresh: boolean) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists ${name}`);
    const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The environment every instance of a bench's fleet on one PostgreSQL shares: the same secrets
 * (each instance opens the others' tokens and sealed secrets), a small pool, and sign-in limits
 * out of the load's way.
 */
export function fleetEnv(databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: "4",
    JWT_SECRET: randomBytes(32).toString("hex"),
    SECOND_FACTOR_KEY: randomBytes(32).toString("hex"),
    INTEGRITY_SIGNING_KEY: randomBytes(32).toString("base64"),
    LOGIN_RATE_LIMIT: "100000",
    LOGIN_FAILURES_PER_ADDRESS: "100000",
  };
}
