import "@ant-design/v5-patch-for-react-19";
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

// The web project shares one module registry per worker (vite.config.ts, isolate: false): the
// heavy libraries (React, antd, Refine) load once per worker instead of once per file. Each file
// still starts with fresh modules of its own code, so module state (the i18n start-up, caches,
// a file's vi.mock of a library) never carries over from the file before.
vi.resetModules();

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// findBy* waits 1 s by default: a first render of a lazily drawn list took 2.7 s in a full run on
// two busy cores (tests/contract/user-approval.test.tsx), failing a test that passes alone. What a
// test waits for still has to appear; it is given the time a loaded machine needs.
configure({ asyncUtilTimeout: 5_000 });

/** Whether jsdom's window (1024 px wide) meets a query's min-width / max-width conditions. */
function widthMatches(query: string): boolean {
  const conditions = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)px\)/g)];
  return conditions.every(([, bound, px]) =>
    bound === "min" ? window.innerWidth >= Number(px) : window.innerWidth <= Number(px),
  );
}

// jsdom has no matchMedia; antd's Table, Form and Grid ask it for the screen size, which is a
// laptop's here (the lists show the columns a phone would hide).
window.matchMedia ??= (query: string) =>
  ({
    matches: widthMatches(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;
