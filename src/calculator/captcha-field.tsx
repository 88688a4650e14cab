/**
 * The reCAPTCHA check of the report dialog. react-google-recaptcha (and Google's script, which it
 * adds) are fetched only when the dialog opens, so the page itself never pays for them.
 */
import { Suspense, lazy, useState } from "react";
import type { Language } from "../shared/language";
import { LoadBoundary } from "./load-boundary";
import { useTranslation } from "./translation";

const ReCAPTCHA = lazy(() => import("react-google-recaptcha"));

/** The widget's own language codes. */
const WIDGET_LANGUAGE: Record<Language, string> = { "en-US": "en", "cn-ZH": "zh-CN" };

interface CaptchaFieldProps {
  siteKey: string;
  onToken: (token: string | null) => void;
  error: string | undefined;
}

export function CaptchaField({ siteKey, onToken, error }: CaptchaFieldProps) {
  const { t, language } = useTranslation();
  const [scriptFailed, setScriptFailed] = useState(false);
  const loadFailed = <p className="calc-error">{t("report.failures.captchaLoadFailed")}</p>;
  return (
    <div className="calc-captcha" role="group" aria-label={t("report.captchaLabel")}>
      <LoadBoundary fallback={loadFailed}>
        <Suspense fallback={<p className="calc-help">{t("report.captchaLoading")}</p>}>
          {scriptFailed ? (
            loadFailed
          ) : (
            <ReCAPTCHA
              // A new widget in the new language when the visitor switches.
              key={language}
              sitekey={siteKey}
              hl={WIDGET_LANGUAGE[language]}
              onChange={onToken}
              onExpired={() => onToken(null)}
              onErrored={() => onToken(null)}
              asyncScriptOnLoad={(state?: { errored?: boolean }) => {
                if (state?.errored) setScriptFailed(true);
              }}
            />
          )}
        </Suspense>
      </LoadBoundary>
      {error && (
        <p id="captcha-error" className="calc-error" role="alert">
          {t(`report.validation.${error}`)}
        </p>
      )}
    </div>
  );
}
