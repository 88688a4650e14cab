/**
 * The calculator's first moments. The build writes `/` as HTML in the default language
 * (build/prerender-calculator.ts); `earlyLanguage` runs inline in that page's <head>, before the
 * body is parsed, so a visitor whose language is another one never sees the English page: it sets
 * `<html lang>`, hides the page until the calculator has rendered in that language, and starts
 * fetching that language's texts beside the entry. `revealPage` ends the wait.
 */

/** Set on <html> while the page's HTML is not what the visitor should see. */
export const WAIT_ATTRIBUTE = "data-calc-wait";

/**
 * The page's CSS for the wait. If the script never renders (the entry failed to download), the
 * prerendered page shows after 8 s rather than never.
 */
export const WAIT_STYLE =
  `[${WAIT_ATTRIBUTE}] #root{visibility:hidden;animation:calc-reveal 0s 8s forwards}` +
  `@keyframes calc-reveal{to{visibility:visible}}`;

export interface EarlyOptions {
  /** The language the HTML is written in. */
  prerendered: string;
  /** The key the console and the calculator keep the visitor's choice under. */
  storageKey: string;
  /** Every language, with its `<html lang>` tag. */
  htmlLang: Record<string, string>;
  /** Each other language's texts chunk, preloaded for a visitor who reads it. */
  texts: Record<string, string>;
}

/**
 * The language the calculator will start in, by the same rule as `pickInitialLanguage`
 * (src/shared/language.ts; a unit test holds them together): the stored choice, else the first
 * browser language we speak (by its primary subtag: zh* Chinese, en* English), else the
 * prerendered one (the default language).
 *
 * Self-contained: the build inlines its source (`Function#toString`), so it may use nothing
 * outside its body and its options, and must not throw.
 */
export function earlyLanguage(options: EarlyOptions, path: string): string {
  const root = document.documentElement;
  if (path !== "/") {
    // A host that answers every path with this page: the console replaces the calculator's HTML.
    root.setAttribute("data-calc-wait", "");
    return "";
  }
  let language = "";
  try {
    const stored = localStorage.getItem(options.storageKey);
    if (stored && Object.prototype.hasOwnProperty.call(options.htmlLang, stored)) {
      language = stored;
    }
  } catch {
    // Storage blocked: go by the browser's languages.
  }
  const tags = Object.keys(options.htmlLang);
  const browser = navigator.languages || [navigator.language];
  for (let i = 0; !language && i < browser.length; i++) {
    const primary = String(browser[i]).toLowerCase().split(/[-_]/)[0];
    language =
      tags.find((tag) => options.htmlLang[tag]!.toLowerCase().split("-")[0] === primary) ?? "";
  }
  if (!language || language === options.prerendered) return options.prerendered;
  root.lang = options.htmlLang[language] ?? root.lang;
  root.setAttribute("data-calc-wait", "");
  const href = options.texts[language];
  if (href) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.crossOrigin = "";
    link.href = href;
    document.head.appendChild(link);
  }
  return language;
}

/** Shows the page once it holds what the visitor should see. */
export function revealPage(): void {
  document.documentElement.removeAttribute(WAIT_ATTRIBUTE);
}
