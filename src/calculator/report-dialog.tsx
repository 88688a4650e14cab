/**
 * `Email Me My Report`: the e-mail address and a reCAPTCHA check, Cancel and Ok. Sends what the
 * visitor typed (the server recomputes every figure) with their language.
 */
import { useState, type FormEvent } from "react";
import { CaptchaField } from "./captcha-field";
import { CALCULATOR_FIELDS, validateCalculatorInputs } from "../shared/calculator/inputs";
import { Modal } from "./modal";
import { sendReport, type ReportOutcome } from "./report-api";
import type { FormTexts } from "./storage";
import { useTranslation } from "./translation";

/** Google's reCAPTCHA site key for this deployment; empty turns the check off (development). */
export const RECAPTCHA_SITE_KEY =
  (import.meta.env.VITE_RECAPTCHA_SITE_KEY as string | undefined) ?? "";

// Deliberately loose: the server has the final word; this catches typos such as a missing `@`.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

type Problems = { email?: "emailRequired" | "emailInvalid"; captcha?: "captchaRequired" };

function checkForm(email: string, token: string | null, siteKey: string): Problems {
  const problems: Problems = {};
  if (email.trim() === "") problems.email = "emailRequired";
  else if (!EMAIL_PATTERN.test(email.trim())) problems.email = "emailInvalid";
  if (siteKey && !token) problems.captcha = "captchaRequired";
  return problems;
}

const isCalculatorField = (field: string | undefined) =>
  CALCULATOR_FIELDS.some((spec) => spec.key === field);

interface ReportDialogProps {
  form: FormTexts;
  /** RECAPTCHA_SITE_KEY unless given: tests show the dialog with and without a key. */
  siteKey?: string;
  onClose: () => void;
}

export function ReportDialog({ form, siteKey = RECAPTCHA_SITE_KEY, onClose }: ReportDialogProps) {
  const { t, language } = useTranslation();
  const [email, setEmail] = useState("");
  const [token, setToken] = useState<string | null>(null);
  const [captchaRound, setCaptchaRound] = useState(0);
  const [attempted, setAttempted] = useState(false);
  const [serverProblems, setServerProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [phase, setPhase] = useState<"editing" | "sending" | "sent">("editing");

  // Messages appear after the first Ok and then follow the visitor's corrections.
  const problems = attempted ? { ...checkForm(email, token, siteKey), ...serverProblems } : {};

  const explain = (outcome: Exclude<ReportOutcome, { kind: "sent" }>): string => {
    if (outcome.kind !== "validation") return t(`report.failures.${outcome.kind}`);
    if (isCalculatorField(outcome.field)) {
      return t("report.failures.validation", { field: t(`fields.${outcome.field}.label`) });
    }
    return t("report.failures.validationGeneric");
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase === "sending") return;
    setAttempted(true);
    setServerProblems({});
    setFailure(null);
    if (Object.keys(checkForm(email, token, siteKey)).length > 0) return;
    if (!validateCalculatorInputs(form).ok) {
      setFailure(t("report.failures.invalidInputs"));
      return;
    }
    setPhase("sending");
    const outcome = await sendReport({
      inputs: form,
      email: email.trim(),
      captchaToken: token,
      language,
    });
    if (outcome.kind === "sent") {
      setPhase("sent");
      return;
    }
    setPhase("editing");
    if (outcome.kind === "validation" && outcome.field === "email") {
      setServerProblems({ email: "emailInvalid" });
      return;
    }
    if (outcome.kind === "captchaFailed") {
      // A token is good for one verification: the visitor has to tick the box again. The
      // server's message says so; "Recaptcha is required" waits for the next Ok.
      setAttempted(false);
      setToken(null);
      setCaptchaRound((round) => round + 1);
    }
    setFailure(explain(outcome));
  };

  return (
    <Modal titleId="report-title" onClose={onClose}>
      <h2 id="report-title">{t("report.title")}</h2>
      {phase === "sent" ? (
        <>
          <p role="status" className="calc-success">
            {t("report.sent", { email: email.trim() })}
          </p>
          <div className="calc-dialog-buttons">
            <button type="button" className="calc-button primary" onClick={onClose} autoFocus>
              {t("report.close")}
            </button>
          </div>
        </>
      ) : (
        <form noValidate onSubmit={submit}>
          <p className="calc-help">{t("report.intro")}</p>
          <div className={`calc-field${problems.email ? " has-error" : ""}`}>
            <label htmlFor="report-email">{t("report.email")}</label>
            <input
              id="report-email"
              type="email"
              autoComplete="email"
              value={email}
              aria-invalid={problems.email ? true : undefined}
              aria-describedby={problems.email ? "report-email-error" : undefined}
              onChange={(event) => {
                setEmail(event.target.value);
                setServerProblems({});
              }}
            />
            {problems.email && (
              <p id="report-email-error" className="calc-error" role="alert">
                {t(`report.validation.${problems.email}`)}
              </p>
            )}
          </div>
          {siteKey ? (
            <CaptchaField
              key={captchaRound}
              siteKey={siteKey}
              onToken={setToken}
              error={problems.captcha}
            />
          ) : (
            <p className="calc-note">{t("report.captchaOff")}</p>
          )}
          {failure && (
            <p className="calc-error calc-failure" role="alert">
              {failure}
            </p>
          )}
          <div className="calc-dialog-buttons">
            <button type="button" className="calc-button secondary" onClick={onClose}>
              {t("report.cancel")}
            </button>
            <button
              type="submit"
              className="calc-button primary"
              // Not `disabled`: that would drop keyboard focus to the page while sending.
              aria-disabled={phase === "sending"}
            >
              {phase === "sending" ? t("report.sending") : t("report.ok")}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
