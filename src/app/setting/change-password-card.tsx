import { useCustomMutation } from "@refinedev/core";
import { Button, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { codedErrorNotification, errorCodeOf } from "../components/notifications";
import { Panel } from "../components/panel";
import { NewPasswordItems } from "../components/password-checklist";
import { setToken } from "../../providers/session";
import { translateApiError } from "../../providers/errors";

export const CHANGE_PASSWORD_PATH = "/api/account/password";

interface ChangePasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Errors that belong to one field are shown under it, not only in a toast. */
const FIELD_OF_CODE: Record<string, keyof ChangePasswordValues> = {
  WRONG_CURRENT_PASSWORD: "currentPassword",
  WEAK_PASSWORD: "newPassword",
};

export function ChangePasswordCard() {
  const { t } = useTranslation("setting");
  const [form] = Form.useForm<ChangePasswordValues>();
  const newPassword = Form.useWatch("newPassword", form) ?? "";
  const { mutate, mutation } = useCustomMutation();

  const submit = ({ currentPassword, newPassword }: ChangePasswordValues) =>
    mutate(
      {
        url: CHANGE_PASSWORD_PATH,
        method: "post",
        values: { currentPassword, newPassword },
        successNotification: { type: "success", message: t("password.changed") },
        errorNotification: codedErrorNotification(
          t,
          t("password.failed"),
          Object.keys(FIELD_OF_CODE),
        ),
      },
      {
        // Every other session ended; this one goes on with the fresh token the server sent.
        onSuccess: ({ data }) => {
          const token = (data as { token?: unknown } | undefined)?.token;
          if (typeof token === "string" && token !== "") setToken(token);
          form.resetFields();
        },
        onError: (error) => {
          const field = FIELD_OF_CODE[errorCodeOf(error) ?? ""];
          if (field) form.setFields([{ name: field, errors: [translateApiError(error, t)] }]);
        },
      },
    );

  return (
    <Panel title={t("password.title")}>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark style={{ maxWidth: 420 }}>
        <Form.Item
          name="currentPassword"
          label={t("password.current")}
          rules={[{ required: true, message: t("password.currentRequired") }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordItems
          name="newPassword"
          confirmName="confirmPassword"
          password={newPassword}
          checklistId="new-password-rules"
          words={{
            label: t("password.new"),
            required: t("password.newRequired"),
            weak: t("password.weak"),
            confirmLabel: t("password.confirm"),
            confirmRequired: t("password.confirmRequired"),
            mismatch: t("password.mismatch"),
          }}
        />
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t("password.submit")}
        </Button>
      </Form>
    </Panel>
  );
}
