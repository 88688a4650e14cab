import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import type { HtmlTagDescriptor, Plugin } from "vite";
import { defineConfig } from "vitest/config";

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

/**
 * `/` is the public calculator, whose chunk main.tsx can only request after React has downloaded
 * and run: one more round trip (~0.25 s on a phone) before the first paint. Naming the
 * calculator's chunk, its style sheet and both languages' texts in the page lets the browser
 * fetch them alongside the entry. The console's paths need none of it (~12 kB): the build also
 * writes `console.html`, the same page without these links, which the server sends for every
 * path but `/` (a host that only knows index.html still works, paying the 12 kB).
 */
function preloadCalculator(): Plugin {
  let calculatorFiles: string[] = [];
  return {
    name: "preload-calculator",
    apply: "build",
    writeBundle(options) {
      if (!options.dir) return;
      const html = readFileSync(join(options.dir, "index.html"), "utf8");
      const links = html.match(/\s*<link\b[^>]*>/g) ?? [];
      const forCalculator = links.filter((link) =>
        calculatorFiles.some((file) => link.includes(`href="/${file}"`)),
      );
      const console = forCalculator.reduce((page, link) => page.replace(link, ""), html);
      writeFileSync(join(options.dir, "console.html"), console);
    },
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).flatMap((c) => (c.type === "chunk" ? [c] : []));
        const page = chunks.find((c) =>
          c.facadeModuleId?.endsWith("/src/calculator/calculator-app.tsx"),
        );
        if (!page)
          throw new Error("preload-calculator: no chunk for src/calculator/calculator-app.tsx");
        const entryFiles = new Set(
          chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]),
        );
        const texts = chunks.filter((c) =>
          /\/locales\/[^/]+\/calculator\.json$/.test(c.facadeModuleId ?? ""),
        );
        const scripts = [page.fileName, ...page.imports, ...texts.map((c) => c.fileName)].filter(
          (file) => !entryFiles.has(file),
        );
        const tag = (attrs: Record<string, string | boolean>): HtmlTagDescriptor => ({
          tag: "link",
          attrs,
          injectTo: "head",
        });
        const styles = [...(page.viteMetadata?.importedCss ?? [])];
        calculatorFiles = [...styles, ...scripts];
        return [
          ...styles.map((file) => tag({ rel: "stylesheet", crossorigin: true, href: `/${file}` })),
          ...scripts.map((file) =>
            tag({ rel: "modulepreload", crossorigin: true, href: `/${file}` }),
          ),
        ];
      },
    },
  };
}

const apiTarget = process.env.API_PROXY_TARGET ?? "http://localhost:8080";

export default defineConfig({
  plugins: [react(), preloadCalculator(), precompress()],
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
