import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const apiTarget = process.env.API_PROXY_TARGET ?? "http://localhost:8080";

export default defineConfig({
  plugins: [react()],
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
        ],
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "web",
          environment: "jsdom",
          include: ["tests/unit/**/*.test.{ts,tsx}", "tests/contract/**/*.test.{ts,tsx}"],
          setupFiles: ["tests/setup/web.ts"],
          server: { deps: { inline: ["@refinedev/react-router"] } },
        },
      },
      {
        extends: true,
        test: {
          name: "server",
          environment: "node",
          include: ["tests/server/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
