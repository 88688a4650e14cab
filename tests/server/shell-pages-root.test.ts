/**
 * Issue 31: the shell's `?id=` pages open at `/` too. `/` is the calculator's prerendered page;
 * `/?id=<a shell page>` is the console's page (no calculator HTML to flash before the shell page),
 * and an id that names no shell page leaves `/` the calculator.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { App } from "../../server/app";
import { SHELL_PAGE_IDS } from "../../src/shared/shell-pages";
import { createTestApp } from "./support/app";
import { createTestDatabase, type TestDatabase } from "./support/database";

const CALCULATOR = '<!doctype html><title>calculator</title><div id="root"><h1>calc</h1></div>';
const CONSOLE = '<!doctype html><title>console</title><div id="root"></div>';

let testDb: TestDatabase;
let app: App;

beforeAll(async () => {
  testDb = await createTestDatabase();
  const dist = join(testDb.dataDir, "dist-shell-pages");
  await mkdir(dist, { recursive: true });
  await writeFile(join(dist, "index.html"), CALCULATOR);
  await writeFile(join(dist, "console.html"), CONSOLE);
  // `vite build` writes a Brotli copy beside each page (vite.config.ts).
  await writeFile(join(dist, "index.html.br"), brotliCompressSync(CALCULATOR));
  await writeFile(join(dist, "console.html.br"), brotliCompressSync(CONSOLE));
  app = await createTestApp(testDb, {}, { distDir: dist });
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

async function page(url: string, method: "GET" | "HEAD" = "GET") {
  const response = await app.inject({ method, url });
  expect(response.statusCode, url).toBe(200);
  expect(response.headers["content-type"], url).toContain("text/html");
  // Revalidated on every visit: a cache keeps `/` and `/?id=…` apart by their URLs, and never
  // hands one for the other without asking.
  expect(response.headers["cache-control"], url).toBe("no-cache");
  return response;
}

describe("`/` and the shell's ?id= pages", () => {
  it("serves the calculator at / without an id", async () => {
    expect((await page("/")).body).toBe(CALCULATOR);
    expect((await page("/?lang=en&utm_source=x")).body).toBe(CALCULATOR);
  });

  it("serves the console's page at /?id=<each shell page>", async () => {
    expect(SHELL_PAGE_IDS).toEqual(
      expect.arrayContaining(["dashboard", "invoice", "create-edit-help-centre-editor"]),
    );
    for (const id of SHELL_PAGE_IDS) {
      expect((await page(`/?id=${id}`)).body, id).toBe(CONSOLE);
    }
    expect((await page("/?id=invoice&settlement=12")).body).toBe(CONSOLE);
    expect((await page("/?article=4&id=create-edit-help-centre-editor")).body).toBe(CONSOLE);
    expect((await page("/?id=create-edit-help-centre-editor", "HEAD")).body).toBe("");
  });

  it("serves the calculator for an id that names no shell page", async () => {
    for (const url of [
      "/?id=unknown",
      "/?id=",
      "/?id=toString",
      "/?id=Dashboard",
      "/?ID=invoice",
    ]) {
      expect((await page(url)).body, url).toBe(CALCULATOR);
    }
  });

  it("tells the two apart by the first id, as the console reads it", async () => {
    expect((await page("/?id=invoice&id=unknown")).body).toBe(CONSOLE);
    expect((await page("/?id=unknown&id=invoice")).body).toBe(CALCULATOR);
  });

  it("sends each page's Brotli copy to a browser that takes it, varying by Accept-Encoding", async () => {
    for (const [url, body] of [
      ["/", CALCULATOR],
      ["/?id=invoice&settlement=3", CONSOLE],
    ] as const) {
      const response = await app.inject({ url, headers: { "accept-encoding": "br" } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-encoding"], url).toBe("br");
      expect(String(response.headers.vary), url).toMatch(/accept-encoding/i);
      expect(response.headers["cache-control"], url).toBe("no-cache");
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(body);
    }
  });

  it("still serves the console's page for its own paths, and the files as they are", async () => {
    expect((await page("/dashboard?id=invoice")).body).toBe(CONSOLE);
    expect((await page("/index.html")).body).toBe(CALCULATOR);
  });
});
