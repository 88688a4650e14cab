/**
 * `/` is the public calculator, opened on phones over slow networks. The build writes it as real
 * HTML: the page in the default language with an empty form, rendered by the same components the
 * browser then hydrates (src/calculator/prerender.tsx), so the first paint needs the HTML alone.
 *
 * - The calculator's style sheet is inlined in the page (a style sheet link would block the paint
 *   for one more round trip) and taken out of the calculator chunk's downloads.
 * - An inline script in <head> (src/calculator/early.ts) hides the page for a visitor who reads
 *   another language until it is rendered in theirs, and preloads that language's texts; the
 *   server allows it by its hash (server/app.ts).
 * - The page preloads what hydration needs: the calculator's chunk, its imports and the default
 *   language's texts (not the other language's, nor the report dialog or the print view).
 * - The console's paths need none of it: the build also writes `console.html`, the page as Vite
 *   built it, which the server sends for every path but `/` without a shell page's `?id=`
 *   (src/shared/shell-pages.ts; a host that only knows index.html
 *   still works: the console replaces the calculator's HTML, src/main.tsx).
 */
import { resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { createServer, minifySync, type Plugin, type Rolldown } from "vite";
import type {
  PrerenderedCalculator,
  prerenderCalculator as Prerender,
} from "../src/calculator/prerender";

const PAGE_MODULE = "/src/calculator/calculator-app.tsx";
const TEXTS_MODULE = /\/locales\/([^/]+)\/calculator\.json$/;

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Renders the page with Vite's SSR loader (TSX, JSON and `import.meta.glob` as in the app). */
async function renderPage(root: string): Promise<PrerenderedCalculator> {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: "error",
    appType: "custom",
    plugins: [react()],
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const module = (await server.ssrLoadModule("/src/calculator/prerender.tsx")) as {
      prerenderCalculator: typeof Prerender;
    };
    return await module.prerenderCalculator();
  } finally {
    await server.close();
  }
}

function replaceOnce(html: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(html)) throw new Error(`prerender-calculator: index.html has no ${pattern}`);
  return html.replace(pattern, () => replacement);
}

export function prerenderCalculator(): Plugin[] {
  let root = process.cwd();
  let css = "";
  let preloads: string[] = [];
  let texts: Record<string, string> = {};

  const chunksOf = (bundle: Rolldown.OutputBundle) =>
    Object.values(bundle).flatMap((c) => (c.type === "chunk" ? [c] : []));

  return [
    {
      // Before Vite writes each dynamic import's list of files to fetch (build-import-analysis).
      name: "prerender-calculator:style",
      apply: "build",
      configResolved(config) {
        root = config.root;
      },
      generateBundle: {
        order: "pre",
        handler(_options, bundle) {
          const chunks = chunksOf(bundle);
          const page = chunks.find((c) => c.facadeModuleId === resolve(root, `.${PAGE_MODULE}`));
          if (!page) throw new Error(`prerender-calculator: no chunk for ${PAGE_MODULE}`);
          const styles = page.viteMetadata?.importedCss ?? new Set<string>();
          css = [...styles]
            .map((file) => {
              const asset = bundle[file];
              if (asset?.type !== "asset") throw new Error(`prerender-calculator: no ${file}`);
              delete bundle[file];
              return String(asset.source);
            })
            .join("");
          styles.clear();

          const entryFiles = new Set(
            chunks.filter((c) => c.isEntry).flatMap((c) => [c.fileName, ...c.imports]),
          );
          texts = Object.fromEntries(
            chunks.flatMap((c) => {
              const language = TEXTS_MODULE.exec(c.facadeModuleId ?? "")?.[1];
              return language ? [[language, `/${c.fileName}`]] : [];
            }),
          );
          preloads = [page.fileName, ...page.imports].filter((file) => !entryFiles.has(file));
        },
      },
    },
    {
      // After Vite has written index.html.
      name: "prerender-calculator:page",
      apply: "build",
      generateBundle: {
        order: "post",
        async handler(_options, bundle) {
          const index = bundle["index.html"];
          if (index?.type !== "asset") throw new Error("prerender-calculator: no index.html");
          const built = String(index.source);
          this.emitFile({ type: "asset", fileName: "console.html", source: built });

          const page = await renderPage(root);
          const { [page.language]: ownTexts, ...otherTexts } = texts;
          if (!ownTexts) throw new Error(`prerender-calculator: no texts for ${page.language}`);
          const links = [...preloads.map((file) => `/${file}`), ownTexts]
            .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)
            .join("\n    ");
          const script = minifySync("early.js", page.earlyScript(otherTexts)).code.trim();
          const head =
            `<style>${page.waitStyle}${css}</style>\n    ` +
            `<script>${script}</script>\n    ${links}\n  </head>`;

          let html = replaceOnce(built, /<html lang="[^"]*">/, `<html lang="${page.htmlLang}">`);
          html = replaceOnce(
            html,
            /<title>[^<]*<\/title>/,
            `<title>${escapeHtml(page.title)}</title>`,
          );
          html = replaceOnce(
            html,
            /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
            `<meta name="description" content="${escapeHtml(page.description)}" />`,
          );
          html = replaceOnce(html, /<\/head>/, head);
          html = replaceOnce(html, /<div id="root"><\/div>/, `<div id="root">${page.markup}</div>`);
          index.source = html;
        },
      },
    },
  ];
}
