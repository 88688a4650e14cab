import { Button, Form, Input, Space } from "antd";
import { useTranslation } from "react-i18next";
import type { UserDetail } from "../../../providers/api-types";
import { USER_URL_MAX_LENGTH } from "../../../shared/user-actions";
import { urlProblem, urlRequest } from "./requests";
import { useUserAction } from "./use-user-action";

/** Edits the user's URL: http(s) only, checked before sending; an empty field clears it. */
export function UrlEdit({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  const { run, pending } = useUserAction();
  const [form] = Form.useForm<{ url: string }>();

  const send = async ({ url }: { url: string | undefined }) => {
    const value = url ?? "";
    const clearing = value.trim() === "";
    await run(urlRequest(user.id, value), {
      success: t(clearing ? "actions.url.cleared" : "actions.url.saved"),
      failed: t("actions.url.failed"),
    }).then((done) => done !== undefined && onChanged());
  };

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={send}
      initialValues={{ url: user.url ?? "" }}
      key={user.url ?? ""}
    >
      <Form.Item
        name="url"
        label={t("actions.url.label")}
        extra={t("actions.url.help")}
        rules={[
          {
            validator: (_, value: string | undefined) => {
              const problem = urlProblem(value);
              return problem
                ? Promise.reject(new Error(t(problem, { max: USER_URL_MAX_LENGTH })))
                : Promise.resolve();
            },
          },
        ]}
      >
        <Input placeholder="https://" inputMode="url" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={pending}>
          {t("actions.url.save")}
        </Button>
      </Space>
    </Form>
  );
}
