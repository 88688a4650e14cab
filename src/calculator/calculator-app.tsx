/**
 * The public calculator's root: holds the language and its texts, keeps the document's title,
 * description and `lang` in step with them, and renders the page. Loaded by src/main.tsx for `/`.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { Language } from "../shared/language";
// Inlined into the prerendered page by the build, which keeps it out of the chunk's downloads.
import "./calculator.css";
import { CalculatorPage } from "./calculator-page";
import { revealPage } from "./early";
import { applyLanguage, createTranslator, loadCalculatorTexts, type Texts } from "./i18n";
import { TranslationContext, type CalculatorTranslation } from "./translation";

interface CalculatorAppProps {
  initialLanguage: Language;
  initialTexts: Texts;
  /**
   * Rendering the build's HTML (renderToString) or hydrating it: the first render must match it,
   * so the visitor's saved figures apply right after, before the next paint.
   */
  hydrating?: boolean;
}

export function CalculatorApp({ initialLanguage, initialTexts, hydrating }: CalculatorAppProps) {
  const [{ language, texts }, setActive] = useState({
    language: initialLanguage,
    texts: initialTexts,
  });
  const latestRequest = useRef(0);

  const switchLanguage = useCallback((next: Language) => {
    const request = ++latestRequest.current;
    loadCalculatorTexts(next).then(
      (loaded) => {
        // A newer switch started while this one was loading: let that one win.
        if (request === latestRequest.current) setActive({ language: next, texts: loaded });
      },
      // Offline or a replaced deployment: keep the current language rather than break the page.
      () => undefined,
    );
  }, []);

  const value = useMemo<CalculatorTranslation>(
    () => ({ language, t: createTranslator(texts), switchLanguage }),
    [language, texts, switchLanguage],
  );

  useEffect(() => {
    applyLanguage(language);
    document.title = value.t("meta.title");
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute("content", value.t("meta.description"));
  }, [language, value]);

  // The page now shows what the visitor should see (their language): end the early script's wait.
  useLayoutEffect(revealPage, []);

  return (
    <TranslationContext value={value}>
      <CalculatorPage hydrating={hydrating} />
    </TranslationContext>
  );
}
