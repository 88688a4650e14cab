import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { moduleMenuTexts } from "./build/menu-texts.ts";
import { prerenderCalculator } from "./build/prerender-calculator.ts";

/**
 * Writes `.br` and `.gz` beside every text file of the build, which the server sends to browsers
 * that accept them (@fastify/static `preCompressed`): compressing once here at the highest levels
 * beats compressing on every request, and a phone on a slow link gets a third of the bytes.
 */
function precompress(): Plugin {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
  return {
    name: "precompress",
    apply: "build",
    writeBundle(options) {
      if (!options.dir) return;
      for (const path of files(options.dir)) {
        if (!/\.(js|css|html|json|svg)$/.test(path) || path.includes("/.vite/")) continue;
        const body = readFileSync(path);
        if (body.length < 1024) continue;
        writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
        // Quality 9 is within a few per cent of 11 and builds several times faster.
        const brotli = { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } };
        writeFileSync(`${path}.br`, brotliCompressSync(body, brotli));
      }
    },
  };
}

/** The server suite's files that walk the whole OpenAPI document (vitest project server-openapi). */
const OPENAPI_WALKERS = ["tests/server/openapi-truth.test.ts", "tests/server/openapi-fuzz.test.ts"];
const SERVER_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 120_000 };

const apiTarget = process.env.API_PROXY_TARGET ?? "http://localhost:8080";

export default defineConfig({
  plugins: [react(), moduleMenuTexts(), prerenderCalculator(), precompress()],
  resolve: {
    // qs's side-channel is ~7 kB gzip of helpers (object-inspect, get-intrinsic) around a WeakMap.
    alias: { "side-channel": fileURLToPath(new URL("./build/side-channel.cjs", import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { "/v1": apiTarget },
  },
  build: {
    outDir: "dist",
    sourcemap: false,
    // bench/size.ts reads the manifest to show which modules became lazy chunks.
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // @refinedev/antd's single bundle imports its markdown field (react-markdown, remark-gfm),
        // which do not declare themselves side-effect free, so every page using a Refine hook
        // would carry ~35 kB gzip of markdown renderer it never calls.
        moduleSideEffects: [
          { test: /node_modules\/(react-markdown|remark-gfm)\//, sideEffects: false },
          // Likewise Refine's CSV export and import (papaparse, ~7 kB gzip): the console's export
          // writes its own CSV (src/app/kit/csv.ts).
          { test: /node_modules\/papaparse\//, sideEffects: false },
        ],
      },
    },
  },
  test: {
    // Vitest keeps a core for itself by default (one worker on two cores); the suites wait on
    // jsdom, the embedded database and child servers enough that two workers finish ~1.5x sooner.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: "web",
          environment: "jsdom",
          include: ["tests/unit/**/*.test.{ts,tsx}", "tests/contract/**/*.test.{ts,tsx}"],
          setupFiles: ["tests/setup/web.ts"],
          // The files of a worker share it: React, antd, Refine and jsdom's libraries load once
          // per worker, not once per file (a new process per file spent half the suite's CPU,
          // 484 s against 222 s, in loading them). Each file still gets a fresh jsdom window and
          // fresh modules of the console's code (tests/setup/web.ts resets them), and must
          // unmount what it mounts.
          isolate: false,
          // Two workers on two cores: a render-heavy test can outlast vitest's 5 s under load.
          testTimeout: 20_000,
          server: { deps: { inline: ["@refinedev/react-router"] } },
        },
      },
      {
        extends: true,
        test: {
          name: "server",
          environment: "node",
          include: ["tests/server/**/*.test.ts"],
          exclude: OPENAPI_WALKERS,
          // The files of a worker share it: Fastify, Drizzle, zod, PGlite and the PostgreSQL
          // driver load once per worker, not once per file (a process per file spent 360 of the
          // two engines' 1,650 worker-seconds importing). tests/setup/server.ts gives each file
          // fresh modules of the server's own code.
          isolate: false,
          setupFiles: ["tests/setup/server.ts"],
          ...SERVER_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          // The two walkers of the OpenAPI document in a process each: the document's check
          // (openapi-truth) run after the fuzz in one shared worker found documented input refused
          // and a plate pattern missing, on PostgreSQL, in two runs out of two; alone, or before
          // the fuzz, it passes. The state they share was not found (docs/architecture.md).
          name: "server-openapi",
          environment: "node",
          include: OPENAPI_WALKERS,
          ...SERVER_TIMEOUTS,
        },
      },
    ],
  },
});
