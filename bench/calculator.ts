/**
 * Speed benchmark of the public calculator (`/`) against a stock Refine + antd page of the same
 * content (bench/stock-calculator, built here with Vite's defaults), so that the figures are
 * ratios measured in one run rather than absolutes that depend on the machine. Builds the site,
 * starts the real server, serves the stock page beside it (brotli, like the server's files), and
 * opens each in Chromium under Lighthouse's mobile throttle set over the DevTools protocol
 * (150 ms RTT, 1.6 Mbps down, 750 kbps up, 4× CPU slowdown, cache disabled), alternating the two.
 * Reports, from navigation: First and Largest Contentful Paint, Cumulative Layout Shift, Total
 * Blocking Time (Lighthouse's, after FCP, and all of it from navigation: the stock page blocks
 * before its first paint) and the gzip size of every JavaScript file the page loads; each run,
 * the medians and the calculator's ratios to the stock page.
 *
 *   npm run bench:calculator            (add -- --no-build to reuse an existing dist/;
 *                                         BENCH_RUNS=5 for more visits of each page)
 *
 * Goals (issue 18): LCP ≤ 0.25× the stock page's, JavaScript ≤ 0.25×, CLS ≤ 0.02.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { chromium, type Browser } from "@playwright/test";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { chromiumArgs } from "../playwright.config";
import { startServer } from "../tests/e2e/support/server";

const GOALS = { lcpRatio: 0.25, jsRatio: 0.25, cls: 0.02 };
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// Lighthouse's "slow 4G" mobile profile, in the units the protocol wants (bytes per second).
const THROTTLE = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
// The page counts as settled once no long task has started for this long after `load`.
const QUIET_MS = 2000;
const MAX_WAIT_MS = 15_000;

interface Run {
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  blockingMs: number;
  jsBytes: number;
  files: Map<string, number>;
}

type Shift = { start: number; value: number };
type BenchState = {
  fcp: number;
  lcp: number;
  shifts: Shift[];
  longTasks: { start: number; duration: number }[];
};

/** Installed before any page script: buffered observers for paint, LCP, shifts and long tasks. */
function observePerformance() {
  const bench: BenchState = { fcp: 0, lcp: 0, shifts: [], longTasks: [] };
  (window as unknown as { __bench: BenchState }).__bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "first-contentful-paint") bench.fcp = entry.startTime;
    }
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.lcp = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[]) {
      if (!entry.hadRecentInput) bench.shifts.push({ start: entry.startTime, value: entry.value });
    }
  }).observe({ type: "layout-shift", buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: "longtask", buffered: true });
}

/** Lighthouse's TBT: each long task's time beyond 50 ms, counting only what falls after FCP. */
function totalBlockingTime({ fcp, longTasks }: BenchState): number {
  return longTasks.reduce((sum, task) => {
    const end = task.start + task.duration;
    if (end <= fcp) return sum;
    const counted = end - Math.max(task.start, fcp);
    // A task straddling FCP blocks only for its part after FCP, and only beyond 50 ms of it.
    return sum + Math.max(0, Math.min(counted, task.duration - 50));
  }, 0);
}

/**
 * Blocking time from navigation: each long task's time beyond 50 ms, wherever it falls. TBT
 * counts only what follows FCP, so a page that paints nothing until its script has run (the
 * stock page) scores 0 there however long it blocked; this counts both pages alike.
 */
function blockingFromNavigation({ longTasks }: BenchState): number {
  return longTasks.reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
}

/** CLS as the web-vitals define it: the largest session window (gaps < 1 s, at most 5 s). */
function cumulativeLayoutShift(shifts: Shift[]): number {
  let worst = 0;
  let session = 0;
  let first = 0;
  let last = 0;
  for (const shift of shifts) {
    if (session > 0 && shift.start - last < 1000 && shift.start - first < 5000) {
      session += shift.value;
    } else {
      session = shift.value;
      first = shift.start;
    }
    last = shift.start;
    worst = Math.max(worst, session);
  }
  return worst;
}

async function measure(browser: Browser, url: string): Promise<Run> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", THROTTLE);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  await page.addInitScript(observePerformance);

  const files = new Map<string, number>();
  const bodies: Promise<void>[] = [];
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname;
    // Module preloads arrive as resource type "other": go by the file, not the request type.
    if (!path.endsWith(".js")) return;
    bodies.push(
      response
        .body()
        .then((body) => void files.set(path, gzipSync(body).length))
        .catch(() => undefined),
    );
  });

  await page.goto(url, { waitUntil: "load" });
  const loadedAt = Date.now();
  let state: BenchState;
  for (;;) {
    await page.waitForTimeout(250);
    state = await page.evaluate(() => (window as unknown as { __bench: BenchState }).__bench);
    const now = await page.evaluate(() => performance.now());
    const lastTaskEnd = Math.max(0, ...state.longTasks.map((t) => t.start + t.duration));
    const quiet = now - lastTaskEnd >= QUIET_MS && state.lcp > 0;
    if (quiet || Date.now() - loadedAt > MAX_WAIT_MS) break;
  }
  await Promise.all(bodies);
  await context.close();
  return {
    fcpMs: state.fcp,
    lcpMs: state.lcp,
    cls: cumulativeLayoutShift(state.shifts),
    tbtMs: totalBlockingTime(state),
    blockingMs: blockingFromNavigation(state),
    jsBytes: [...files.values()].reduce((a, b) => a + b, 0),
    files,
  };
}

/** The stock page, built by Vite with its defaults and plugin-react, into a temporary folder. */
async function buildStockPage(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "stock-calculator-"));
  await build({
    root: "bench/stock-calculator",
    configFile: false,
    logLevel: "warn",
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** Serves a built folder as the real server serves dist/: brotli (quality 9) where accepted. */
function serveFolder(root: string, port: number): Promise<{ url: string; server: Server }> {
  const compressed = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname));
    let file = join(root, path);
    if (!file.startsWith(root) || !existsSync(file) || statSync(file).isDirectory()) {
      file = join(root, "index.html");
    }
    let body: Buffer = readFileSync(file);
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    response.setHeader("Content-Type", type);
    response.setHeader("Cache-Control", "no-cache");
    if (/\bbr\b/.test(String(request.headers["accept-encoding"])) && type !== TYPES[".svg"]) {
      const cached = compressed.get(file);
      body =
        cached ?? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
      compressed.set(file, body);
      response.setHeader("Content-Encoding", "br");
    }
    response.end(body);
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${port}`, server })),
  );
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => bytes / 1024;
const describe = (run: Run) =>
  `FCP ${run.fcpMs.toFixed(0)} ms, LCP ${run.lcpMs.toFixed(0)} ms, CLS ${run.cls.toFixed(3)}, ` +
  `TBT ${run.tbtMs.toFixed(0)} ms, blocking ${run.blockingMs.toFixed(0)} ms, JS ${kb(run.jsBytes).toFixed(1)} kB gzip in ${run.files.size} files`;

if (!process.argv.includes("--no-build")) {
  execFileSync("node_modules/.bin/vite", ["build", "--logLevel", "warn"], { stdio: "inherit" });
}
const stockDir = await buildStockPage();

const port = Number(process.env.BENCH_PORT ?? 8710);
const server = await startServer({ port });
const stock = await serveFolder(stockDir, port + 1);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: chromiumArgs });
try {
  const pages = { calculator: `${server.url}/`, stock: `${stock.url}/` };
  // One unthrottled visit of each first, so that no first-request work is measured.
  for (const url of Object.values(pages)) {
    await (await browser.newPage()).goto(url, { waitUntil: "load" });
  }

  const runs = { calculator: [] as Run[], stock: [] as Run[] };
  for (let i = 0; i < RUNS; i++) {
    // Alternating, so that both pages meet the same moments of a busy machine.
    for (const name of ["calculator", "stock"] as const) {
      const run = await measure(browser, pages[name]);
      runs[name].push(run);
      console.log(`${name.padEnd(10)} run ${i + 1}: ${describe(run)}`);
    }
  }

  for (const name of ["calculator", "stock"] as const) {
    console.log(`\nJavaScript loaded by the ${name} page (last run):`);
    for (const [path, size] of [...runs[name][runs[name].length - 1]!.files].sort(
      (a, b) => b[1] - a[1],
    )) {
      console.log(`  ${kb(size).toFixed(1).padStart(6)} kB  ${path}`);
    }
  }

  const medians = (list: Run[]) => ({
    fcpMs: median(list.map((r) => r.fcpMs)),
    lcpMs: median(list.map((r) => r.lcpMs)),
    cls: median(list.map((r) => r.cls)),
    tbtMs: median(list.map((r) => r.tbtMs)),
    blockingMs: median(list.map((r) => r.blockingMs)),
    jsKb: median(list.map((r) => kb(r.jsBytes))),
  });
  const calc = medians(runs.calculator);
  const base = medians(runs.stock);
  const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
  const shown = (a: number, b: number) => (b > 0 ? `${ratio(a, b).toFixed(2)}×` : "—");
  const verdict = (met: boolean) => (met ? "met" : "MISSED");
  const row = (label: string, a: number, b: number, unit: string, digits = 0, goal = "") =>
    console.log(
      `  ${label.padEnd(4)} ${a.toFixed(digits).padStart(8)} ${unit.padEnd(7)}` +
        `${b.toFixed(digits).padStart(8)} ${unit.padEnd(7)}${shown(a, b).padStart(7)}  ${goal}`,
    );
  console.log(`\nmedian of ${RUNS} (throttled: 150 ms RTT, 1.6 Mbps, 4× CPU):`);
  console.log(`       calculator         stock          ratio`);
  row("FCP", calc.fcpMs, base.fcpMs, "ms");
  const lcpMet = ratio(calc.lcpMs, base.lcpMs) <= GOALS.lcpRatio;
  row("LCP", calc.lcpMs, base.lcpMs, "ms", 0, `goal ≤ ${GOALS.lcpRatio}×: ${verdict(lcpMet)}`);
  row("TBT", calc.tbtMs, base.tbtMs, "ms", 0, "(Lighthouse's: after FCP only)");
  row("BT", calc.blockingMs, base.blockingMs, "ms", 0, "(blocking time from navigation)");
  const jsMet = ratio(calc.jsKb, base.jsKb) <= GOALS.jsRatio;
  row("JS", calc.jsKb, base.jsKb, "kB", 1, `goal ≤ ${GOALS.jsRatio}×: ${verdict(jsMet)}`);
  const clsMet = calc.cls <= GOALS.cls;
  row("CLS", calc.cls, base.cls, "", 3, `goal ≤ ${GOALS.cls}: ${verdict(clsMet)}`);
  if (!lcpMet || !jsMet || !clsMet) process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
  await new Promise((resolve) => stock.server.close(resolve));
  rmSync(stockDir, { recursive: true, force: true });
}
