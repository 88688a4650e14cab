/**
 * The calculator's page as HTML, for the build (build/prerender-calculator.ts), which loads this
 * module through Vite's SSR loader: the same components the browser hydrates, rendered in the
 * default language with an empty form, and the inline script that runs before it is painted.
 */
import { renderToString } from "react-dom/server";
import { DEFAULT_LANGUAGE, HTML_LANG, LANGUAGE_STORAGE_KEY } from "../shared/language";
import { CalculatorApp } from "./calculator-app";
import { WAIT_STYLE, earlyLanguage, type EarlyOptions } from "./early";
import { createTranslator, loadCalculatorTexts } from "./i18n";

export interface PrerenderedCalculator {
  language: string;
  htmlLang: string;
  title: string;
  description: string;
  /** The inside of `<div id="root">`. */
  markup: string;
  /** For the page's <style>. */
  waitStyle: string;
  /** The inline script for <head>, given each other language's texts chunk. */
  earlyScript: (texts: Record<string, string>) => string;
}

export async function prerenderCalculator(): Promise<PrerenderedCalculator> {
  const texts = await loadCalculatorTexts(DEFAULT_LANGUAGE);
  const t = createTranslator(texts);
  const markup = renderToString(
    <CalculatorApp initialLanguage={DEFAULT_LANGUAGE} initialTexts={texts} hydrating />,
  );
  return {
    language: DEFAULT_LANGUAGE,
    htmlLang: HTML_LANG[DEFAULT_LANGUAGE],
    title: t("meta.title"),
    description: t("meta.description"),
    markup,
    waitStyle: WAIT_STYLE,
    earlyScript: (others) => {
      const options: EarlyOptions = {
        prerendered: DEFAULT_LANGUAGE,
        storageKey: LANGUAGE_STORAGE_KEY,
        htmlLang: HTML_LANG,
        texts: others,
      };
      // No value may close the script element.
      const json = JSON.stringify(options).replace(/</g, "\\u003c");
      return `(${earlyLanguage.toString()})(${json},location.pathname)`;
    },
  };
}
