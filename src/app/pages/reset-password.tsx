import { Button, Card, Flex, Form, Result, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";

import { http } from "../../providers/http";
import { translateApiError } from "../../providers/errors";
import type { StaffResetLink } from "../../shared/schemas/password-reset";
import type { ResetLink as WalletResetLink } from "../../shared/schemas/wallet-app";
import { NewPasswordItems } from "../components/password-checklist";
import { Refusal } from "../components/refusal";
import { formatDateTime } from "../format";
import { Brand } from "../layout/brand";
import { LanguageSwitcher } from "../layout/language-switcher";

/** A token as the server issues them; anything else is refused without asking the server. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type ResetLink = WalletResetLink | StaffResetLink;

/**
 * Whose links a page spends: a wallet user's (`/reset-password`) or an administrator's
 * (`/login/reset-password`); the server keeps them apart, so each page calls its own routes.
 */
export type ResetAudience = "wallet" | "staff";

const API_PREFIX: Record<ResetAudience, string> = { wallet: "/api/app", staff: "/api/auth" };

/** The texts' keys under `pages.resetPassword`, with the link's fields as their values. */
const textsOf = (audience: ResetAudience) =>
  audience === "wallet" ? "pages.resetPassword" : "pages.resetPassword.staff";

type Stage =
  | { step: "checking" }
  | { step: "form"; link: ResetLink }
  | { step: "done"; link: ResetLink }
  /** `error` undefined: the link's token is malformed, so the server was not asked. */
  | { step: "failed"; error?: unknown };

/**
 * `/reset-password?token=…`, the page a wallet user reaches from the e-mail Reset Password sends,
 * and `/login/reset-password?token=…`, an administrator's: checks the link first (expired, used or
 * unknown links are told so at once), then sets the password under the administrators' rules.
 * Public, like the calculator: no session.
 */
export default function ResetPasswordPage({ audience }: { audience: ResetAudience }) {
  const { t } = useTranslation("common");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token") ?? "";
  const malformed = !TOKEN_PATTERN.test(token);
  const [checked, setStage] = useState<Stage>({ step: "checking" });
  const stage: Stage = malformed ? { step: "failed" } : checked;
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<unknown>();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const password = Form.useWatch("password", form) ?? "";

  useEffect(() => {
    if (malformed) return;
    let current = true;
    http.post<ResetLink>(`${API_PREFIX[audience]}/password-reset/check`, { token }).then(
      ({ data: link }) => current && setStage({ step: "form", link }),
      (error: unknown) => current && setStage({ step: "failed", error }),
    );
    return () => {
      current = false;
    };
  }, [token, malformed, audience]);

  const submit = async ({ password }: { password: string }) => {
    setSubmitting(true);
    setSubmitError(undefined);
    try {
      const { data } = await http.post<ResetLink>(`${API_PREFIX[audience]}/password-reset`, {
        token,
        password,
      });
      setStage({ step: "done", link: data });
    } catch (error) {
      const code = (error as { code?: string }).code;
      // A link that died meanwhile (used in another tab, expired) ends the form.
      if (code?.startsWith("RESET_LINK_")) setStage({ step: "failed", error });
      else setSubmitError(error);
    } finally {
      setSubmitting(false);
    }
  };

  const failure = (error: unknown) =>
    error === undefined ? t("errors:codes.RESET_LINK_INVALID") : translateApiError(error, t);

  return (
    <main style={{ minHeight: "100vh", display: "grid", placeItems: "center", padding: 16 }}>
      <Card style={{ width: "100%", maxWidth: 440 }}>
        <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
          <Brand />
          <LanguageSwitcher />
        </Flex>
        <Typography.Title level={1} style={{ fontSize: 20 }}>
          {t(`${textsOf(audience)}.title`)}
        </Typography.Title>
        {stage.step === "checking" && (
          <Flex gap={8} align="center" role="status">
            <Spin size="small" />
            {t("pages.resetPassword.checking")}
          </Flex>
        )}
        {stage.step === "failed" && (
          <Result
            status="warning"
            title={t("pages.resetPassword.failedTitle")}
            subTitle={failure(stage.error)}
          />
        )}
        {stage.step === "done" && (
          <Result
            status="success"
            title={t("pages.resetPassword.doneTitle")}
            subTitle={t(`${textsOf(audience)}.doneText`, stage.link)}
            extra={
              audience === "staff" && (
                <Button type="primary" onClick={() => navigate("/login")}>
                  {t("pages.resetPassword.staff.signIn")}
                </Button>
              )
            }
          />
        )}
        {stage.step === "form" && (
          <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
            <Typography.Paragraph>
              {t(`${textsOf(audience)}.greeting`, stage.link)}{" "}
              {t("pages.resetPassword.expires", { time: formatDateTime(stage.link.expiresAt) })}
            </Typography.Paragraph>
            <NewPasswordItems
              name="password"
              confirmName="confirm"
              password={password}
              checklistId="reset-password-rules"
              words={{
                label: t("pages.resetPassword.fields.password"),
                required: t("pages.resetPassword.errors.requiredPassword"),
                weak: t("pages.resetPassword.errors.weakPassword"),
                confirmLabel: t("pages.resetPassword.fields.confirm"),
                confirmRequired: t("pages.resetPassword.errors.requiredPassword"),
                mismatch: t("pages.resetPassword.errors.mismatch"),
              }}
            />
            {submitError !== undefined && (
              <Refusal title={translateApiError(submitError, t)} style={{ marginBottom: 16 }} />
            )}
            <Button type="primary" htmlType="submit" block loading={submitting}>
              {t("pages.resetPassword.submit")}
            </Button>
          </Form>
        )}
      </Card>
    </main>
  );
}
