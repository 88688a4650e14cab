import { Alert, Button, Card, Flex, Form, Input, Result, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

import { http } from "../../providers/http";
import { translateApiError } from "../../providers/errors";
import { brokenPasswordRules } from "../../shared/password-policy";
import type { ResetLink } from "../../shared/schemas/wallet-app";
import { PasswordChecklist } from "../components/password-checklist";
import { formatDateTime } from "../format";
import { Brand } from "../layout/brand";
import { LanguageSwitcher } from "../layout/language-switcher";

/** A token as the server issues them; anything else is refused without asking the server. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

type Stage =
  | { step: "checking" }
  | { step: "form"; link: ResetLink }
  | { step: "done"; link: ResetLink }
  /** `error` undefined: the link's token is malformed, so the server was not asked. */
  | { step: "failed"; error?: unknown };

/**
 * `/reset-password?token=…`, the page a wallet user reaches from the e-mail Reset Password sends:
 * checks the link first (expired, used or unknown links are told so at once), then sets the
 * wallet password under the administrators' rules. Public, like the calculator: no session.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation("common");
  const [params] = useSearchParams();
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
    http.post<ResetLink>("/api/app/password-reset/check", { token }).then(
      ({ data: link }) => current && setStage({ step: "form", link }),
      (error: unknown) => current && setStage({ step: "failed", error }),
    );
    return () => {
      current = false;
    };
  }, [token, malformed]);

  const submit = async ({ password }: { password: string }) => {
    setSubmitting(true);
    setSubmitError(undefined);
    try {
      const { data } = await http.post<ResetLink>("/api/app/password-reset", { token, password });
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
          {t("pages.resetPassword.title")}
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
            subTitle={t("pages.resetPassword.doneText", {
              accountNumber: stage.link.accountNumber,
            })}
          />
        )}
        {stage.step === "form" && (
          <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
            <Typography.Paragraph>
              {t("pages.resetPassword.greeting", {
                name: stage.link.name,
                accountNumber: stage.link.accountNumber,
              })}{" "}
              {t("pages.resetPassword.expires", { time: formatDateTime(stage.link.expiresAt) })}
            </Typography.Paragraph>
            <Form.Item
              name="password"
              label={t("pages.resetPassword.fields.password")}
              extra={<PasswordChecklist password={password} id="reset-password-rules" />}
              rules={[
                { required: true, message: t("pages.resetPassword.errors.requiredPassword") },
                {
                  validator: (_, value: string | undefined) =>
                    !value || brokenPasswordRules(value).length === 0
                      ? Promise.resolve()
                      : Promise.reject(new Error(t("pages.resetPassword.errors.weakPassword"))),
                },
              ]}
            >
              <Input.Password autoComplete="new-password" aria-describedby="reset-password-rules" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t("pages.resetPassword.fields.confirm")}
              dependencies={["password"]}
              rules={[
                { required: true, message: t("pages.resetPassword.errors.requiredPassword") },
                ({ getFieldValue }) => ({
                  validator: (_, value: string | undefined) =>
                    !value || value === getFieldValue("password")
                      ? Promise.resolve()
                      : Promise.reject(new Error(t("pages.resetPassword.errors.mismatch"))),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            {submitError !== undefined && (
              <Alert
                type="error"
                showIcon
                role="alert"
                message={translateApiError(submitError, t)}
                style={{ marginBottom: 16 }}
              />
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
