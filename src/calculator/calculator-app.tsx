/**
 * The public calculator's root: holds the language and its texts, keeps the document's title,
 * description and `lang` in step with them, and renders the page. Loaded by src/main.tsx for `/`.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Language } from "../shared/language";
import "./calculator.css";
import "./print.css";
import { CalculatorPage } from "./calculator-page";
import { applyLanguage, createTranslator, loadCalculatorTexts, type Texts } from "./i18n";
import { TranslationContext, type CalculatorTranslation } from "./translation";

interface CalculatorAppProps {
  initialLanguage: Language;
  initialTexts: Texts;
}

export function CalculatorApp({ initialLanguage, initialTexts }: CalculatorAppProps) {
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

  return (
    <TranslationContext value={value}>
      <CalculatorPage />
    </TranslationContext>
  );
}
