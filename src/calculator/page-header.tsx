/** The brand bar: the page's heading and the language switcher. */
import { LANGUAGES } from "../shared/language";
import { useTranslation } from "./translation";

export function PageHeader() {
  const { t, language, switchLanguage } = useTranslation();
  return (
    <header className="calc-header">
      <h1>{t("page.heading")}</h1>
      <div className="calc-languages" role="group" aria-label={t("language.label")}>
        {LANGUAGES.map((option) => (
          <button
            key={option}
            type="button"
            // Each name is written in its own language, so a visitor can always find theirs.
            lang={option === "cn-ZH" ? "zh-CN" : "en"}
            aria-pressed={option === language}
            onClick={() => switchLanguage(option)}
          >
            {t(`language.${option}`)}
          </button>
        ))}
      </div>
    </header>
  );
}
