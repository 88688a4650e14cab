// First, before any antd code runs: antd's static message/modal/notification helpers render
// nothing on React 19 without this patch.
import "@ant-design/v5-patch-for-react-19";
import { Component, StrictMode, Suspense, lazy, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

// `/` belongs to the public calculator (a later issue). Until it exists, send visitors to the
// console's dashboard without loading a router or a placeholder screen.
if (window.location.pathname === "/") {
  window.history.replaceState(
    null,
    "",
    `/dashboard${window.location.search}${window.location.hash}`,
  );
}

// The console (Refine, antd, the router, providers) is one lazy chunk so that the entry stays
// tiny; it resolves once the active language's texts are loaded, so nothing renders untranslated.
const Console = lazy(() =>
  import("./app/console").then(async (module) => {
    await module.consoleReady;
    return module;
  }),
);

/**
 * A chunk that fails to load (network lost, a deployment replaced the files) would otherwise
 * leave a blank page. No translations are loaded at that point, so it speaks both languages.
 */
class LoadFailure extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main style={{ padding: 32, fontFamily: "system-ui, sans-serif" }}>
        <h1 style={{ fontSize: 20 }}>
          The console could not be loaded. <span lang="zh-CN">控制台无法加载。</span>
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

createRoot(container).render(
  <StrictMode>
    <LoadFailure>
      <Suspense fallback={<div>Loading...</div>}>
        <Console />
      </Suspense>
    </LoadFailure>
  </StrictMode>,
);
