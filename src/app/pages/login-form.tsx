import { useLogin } from "@refinedev/core";
import { Button, Input, theme } from "antd";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { LoginCredentials } from "../../providers/auth";
import { getCurrentAdmin } from "../../providers/current-admin";
import { changeLanguage, currentLanguage } from "../../providers/i18n";

type Field = keyof LoginCredentials;
/** Translation keys (not texts) so a language switch re-words a shown error. */
type FieldErrors = Partial<Record<Field, string>>;

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateLogin({ email, password }: LoginCredentials): FieldErrors {
  const errors: FieldErrors = {};
  if (email.trim() === "") errors.email = "login.errors.requiredEmail";
  else if (!LOOKS_LIKE_EMAIL.test(email.trim())) errors.email = "login.errors.validEmail";
  if (password === "") errors.password = "login.errors.requiredPassword";
  return errors;
}

function FormField(props: { id: string; label: string; error?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ marginBottom: token.marginLG }}>
      <label htmlFor={props.id} style={{ display: "block", marginBottom: token.marginXS }}>
        {props.label}
      </label>
      {props.children}
      {props.error && (
        <div id={`${props.id}-error`} style={{ color: token.colorError, marginTop: 4 }}>
          {props.error}
        </div>
      )}
    </div>
  );
}

/**
 * E-mail and password, submitted through Refine's login (the auth provider, its notification,
 * the redirect). Plain fields rather than antd's Form: on the very first screen its form engine
 * and validator (~20 kB gzip) would serve three rules. The API offers no sign-up, password reset
 * or "remember me" (sessions persist), so the form offers none either.
 */
export function LoginForm() {
  const { t } = useTranslation("auth");
  const { mutate: login, isPending } = useLogin<LoginCredentials>();
  const [values, setValues] = useState<LoginCredentials>({ email: "", password: "" });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Before the first attempt nobody wants to be told off mid-typing.
    if (submitted) setErrors(validateLogin(next));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateLogin(values);
    setErrors(found);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    login(
      { email: values.email.trim(), password: values.password },
      {
        // Signing in switches to the language saved on the account (Setting), if it has one.
        onSuccess: ({ success }) => {
          const language = success ? getCurrentAdmin()?.language : undefined;
          if (language && language !== currentLanguage()) void changeLanguage(language);
        },
      },
    );
  };

  const a11y = (field: Field) => ({
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? `login-${field}-error` : undefined,
    status: errors[field] ? ("error" as const) : undefined,
  });

  return (
    <form noValidate onSubmit={submit}>
      <FormField
        id="login-email"
        label={t("login.fields.email")}
        error={errors.email && t(errors.email)}
      >
        <Input
          id="login-email"
          ref={(input) => {
            emailRef.current = input?.input ?? null;
          }}
          size="large"
          inputMode="email"
          autoComplete="username"
          autoFocus
          value={values.email}
          onChange={(event) => change("email", event.target.value)}
          {...a11y("email")}
        />
      </FormField>
      <FormField
        id="login-password"
        label={t("login.fields.password")}
        error={errors.password && t(errors.password)}
      >
        <Input.Password
          id="login-password"
          ref={(input) => {
            passwordRef.current = input?.input ?? null;
          }}
          size="large"
          autoComplete="current-password"
          value={values.password}
          onChange={(event) => change("password", event.target.value)}
          {...a11y("password")}
        />
      </FormField>
      <Button type="primary" size="large" htmlType="submit" block loading={isPending}>
        {t("login.signin")}
      </Button>
    </form>
  );
}
