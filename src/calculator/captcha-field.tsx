/**
 * The reCAPTCHA check of the report dialog. react-google-recaptcha (and Google's script, which it
 * adds) are fetched only when the dialog opens, so the page itself never pays for them.
 */
import { Component, Suspense, lazy, useState, type ReactNode } from "react";
import type { Language } from "../shared/language";
import { useTranslation } from "./translation";

const ReCAPTCHA = lazy(() => import("react-google-recaptcha"));

/** The widget's own language codes. */
const WIDGET_LANGUAGE: Record<Language, string> = { "en-US": "en", "cn-ZH": "zh-CN" };

/** A chunk that cannot be fetched (offline) must not take the whole page down with it. */
class LoadBoundary extends Component<{ fallback: ReactNode; children: ReactNode }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

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
