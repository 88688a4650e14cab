import type { ConfigProviderProps } from "antd/es/config-provider";
import type { Locale as AntdLocale } from "antd/es/locale";
import { useSyncExternalStore } from "react";

import type { AdminTheme } from "../shared/domain";
import { consoleTheme } from "./theme";

/**
 * The console's antd settings for the active language's antd locale, the chosen theme and whether
 * the system asks for reduced motion.
 */
export function consoleComponentConfig(
  locale: AntdLocale,
  theme?: AdminTheme | null,
  reducedMotion = false,
): ConfigProviderProps {
  const chosen = consoleTheme(theme);
  return {
    // Someone who asked their system for less motion gets no opening, closing or sliding
    // animations (WCAG 2.3.3): dialogs, menus and toasts appear and go at once.
    theme: reducedMotion ? { ...chosen, token: { ...chosen.token, motion: false } } : chosen,
    locale,
    // antd would render two-character Chinese labels as "确 定".
    button: { autoInsertSpace: false },
    // rc-dialog names every close button "Close": name it in the console's language.
    modal: { closable: { "aria-label": locale.global?.close ?? "Close" } },
  };
}

/**
 * Toasts rise at the bottom, in the middle: at the top right they covered the page header's
 * buttons they follow (User Report's Start, a record's actions) until they went, and at the
 * bottom right they would cover a list's pages.
 */
export const CONSOLE_NOTIFICATIONS = { placement: "bottom" } as const;

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/** Whether the system asks for reduced motion, following a change while the console is open. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}
