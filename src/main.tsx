import { Component, StrictMode, Suspense, lazy, type ReactNode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { DEFAULT_LANGUAGE, type Language } from "./shared/language";
import { shellPageId } from "./shared/shell-pages";
import { revealPage } from "./calculator/early";
import { initialLanguage, loadCalculatorTexts } from "./calculator/i18n";

/**
 * The calculator's chunk and its texts for the visitor's language, fetched side by side (index.html
 * also preloads them). It is rendered once both are here, without Suspense: React holds back a
 * Suspense boundary's content for up to 300 ms after its fallback, which would delay the first paint.
 */
function loadCalculator(language: Language, hydrating: boolean): Promise<ReactNode> {
  return Promise.all([import("./calculator/calculator-app"), loadCalculatorTexts(language)]).then(
    ([{ CalculatorApp }, texts]) => (
      <CalculatorApp initialLanguage={language} initialTexts={texts} hydrating={hydrating} />
    ),
  );
}

// The console (Refine, antd, the router, providers) resolves once the active language's texts
// are loaded, so nothing renders untranslated. antd's static message/modal/notification helpers
// render nothing on React 19 without the patch, which must run before the console does; it lives
// here rather than at the top of the entry because it imports antd.
const Console = lazy(() =>
  Promise.all([import("@ant-design/v5-patch-for-react-19"), import("./app/console")]).then(
    async ([, module]) => {
      await module.consoleReady;
      return module;
    },
  ),
);

/**
 * A chunk that fails to load (network lost, a deployment replaced the files) would otherwise
 * leave a blank page. No translations are loaded at that point, so it speaks both languages.
 */
class LoadFailure extends Component<
  { children?: ReactNode; failed?: boolean },
  { failed: boolean }
> {
  override state = { failed: this.props.failed ?? false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main style={{ padding: 32, fontFamily: "system-ui, sans-serif" }}>
        <h1 style={{ fontSize: 20 }}>
          This page could not be loaded. <span lang="zh-CN">页面无法加载。</span>
        </h1>
        <button type="button" onClick={() => window.location.reload()}>
          Reload <span lang="zh-CN">重新加载</span>
        </button>
      </main>
    );
  }
}

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

/** A fresh root, without the build's HTML (which only hydration may reuse). */
function freshRoot(element: HTMLElement) {
  element.replaceChildren();
  return createRoot(element);
}

// `/` is the public calculator; every other path is the console, and so is `/?id=<a shell page>`
// (the server sends the console's page for it, server/app.ts). Each is its own lazy chunk and
// the entry holds neither, so calculator visitors never download Refine or antd.
if (window.location.pathname === "/" && shellPageId(window.location.search) === undefined) {
  // The build writes `/` as the calculator's HTML in the default language (vite.config.ts):
  // hydrated for a visitor in that language, rendered afresh (while hidden, src/calculator/
  // early.ts) for the others.
  const language = initialLanguage();
  const hydrating = container.firstElementChild !== null && language === DEFAULT_LANGUAGE;
  loadCalculator(language, hydrating).then(
    (calculator) => {
      const page = (
        <StrictMode>
          <LoadFailure>{calculator}</LoadFailure>
        </StrictMode>
      );
      if (hydrating) hydrateRoot(container, page);
      else freshRoot(container).render(page);
    },
    () => {
      freshRoot(container).render(<LoadFailure failed />);
      revealPage();
    },
  );
} else {
  // Where a host answers every path with index.html, the calculator's HTML goes at once.
  const root = freshRoot(container);
  revealPage();
  root.render(
    <StrictMode>
      <LoadFailure>
        <Suspense fallback={<div>Loading...</div>}>
          <Console />
        </Suspense>
      </LoadFailure>
    </StrictMode>,
  );
}
