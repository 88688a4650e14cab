import "@ant-design/v5-patch-for-react-19";
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

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
