import { useCustomMutation } from "@refinedev/core";
import { Button, Flex, Form, Input, Typography, theme } from "antd";
import { useTranslation } from "react-i18next";
import type { RecoveryCodes, TotpEnrolment } from "../../shared/schemas/auth";
import { translateApiError } from "../../providers/errors";
import { codedErrorNotification, errorCodeOf } from "../components/notifications";
import { CopyButton } from "./copy-button";

export const TOTP_CONFIRM_PATH = "/api/account/factors/totp/confirm";

/** Refusals that are about the code typed: said under the code's input. */
const CODE_ERRORS = ["WRONG_CODE", "TOTP_CODE_FORMAT"];

/** A code as typed, without the blanks an app shows in it ("123 456"). */
const digitsOf = (code: string) => code.replace(/\s+/g, "");

/** The secret as an app's "enter a key" screen is typed from: groups of four. */
export const groupedSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * Enrolling an authenticator app: the QR code to scan, the same secret as text to type, and the
 * code the app then shows, which confirms it; the answer is the ten recovery codes.
 */
export function TotpEnrolmentForm({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("security");
  const { token } = theme.useToken();
  const [form] = Form.useForm<{ code: string }>();
  const { mutate, mutation } = useCustomMutation<RecoveryCodes>();

  const submit = ({ code }: { code: string }) =>
    mutate(
      {
        url: TOTP_CONFIRM_PATH,
        method: "post",
        values: { code: digitsOf(code) },
        successNotification: { type: "success", message: t("enrol.done") },
        errorNotification: codedErrorNotification(t, t("enrol.confirmFailed"), CODE_ERRORS),
      },
      {
        onSuccess: ({ data }) => onConfirmed(data.recoveryCodes),
        onError: (error) => {
          if (CODE_ERRORS.includes(errorCodeOf(error) ?? "")) {
            form.setFields([{ name: "code", errors: [translateApiError(error, t)] }]);
          }
        },
      },
    );

  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph style={{ margin: 0 }}>{t("enrol.scan")}</Typography.Paragraph>
      <img
        src={enrolment.qrCode}
        alt={t("enrol.qrAlt")}
        width={200}
        height={200}
        style={{ background: "#fff", padding: 8, borderRadius: token.borderRadius }}
      />
      <div>
        <Typography.Paragraph style={{ marginBottom: 8 }}>
          {t("enrol.typeKey")}
        </Typography.Paragraph>
        <Flex gap={8} wrap align="center">
          <code
            style={{
              fontFamily: token.fontFamilyCode,
              fontSize: token.fontSizeLG,
              overflowWrap: "anywhere",
            }}
          >
            {groupedSecret(enrolment.secret)}
          </code>
          <CopyButton text={enrolment.secret} label={t("enrol.copyKey")} />
        </Flex>
      </div>
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 320 }}>
        <Typography.Paragraph>{t("enrol.enterCode")}</Typography.Paragraph>
        <Form.Item
          name="code"
          label={t("enrol.code")}
          rules={[
            { required: true, message: t("enrol.codeRequired") },
            {
              validator: (_, value?: string) =>
                !value || /^\d{6}$/.test(digitsOf(value))
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("enrol.codeFormat"))),
            },
          ]}
        >
          <Input
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={8}
            style={{ fontFamily: token.fontFamilyCode, letterSpacing: "0.2em" }}
          />
        </Form.Item>
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            {t("enrol.confirm")}
          </Button>
          <Button onClick={onCancel}>{t("common:cancel")}</Button>
        </Flex>
      </Form>
    </Flex>
  );
}
