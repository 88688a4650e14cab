import { ArrowLeftOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Flex, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { z } from "zod";
import { codedErrorNotification, errorCodeOf } from "../../app/components/notifications";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { PasswordChecklist } from "../../app/components/password-checklist";
import type { AdminDto } from "../../providers/api-types";
import { translateApiError } from "../../providers/errors";
import type { administrators } from "../../shared/modules/administrators";
import { brokenPasswordRules } from "../../shared/password-policy";
import { EmailField, NameField } from "./form-fields";
import { ADMIN_PATHS } from "./paths";
import { PermissionCheckboxes } from "./permission-checkboxes";

/** What the screen's inputs hold and send: the declaration's create form. */
type CreateAdminValues = z.input<NonNullable<typeof administrators.create>["body"]>;

/** Coded refusals that belong under one field. */
const FIELD_OF_CODE: Record<string, keyof CreateAdminValues> = {
  EMAIL_TAKEN: "email",
  WEAK_PASSWORD: "password",
};

export default function AdministratorCreate() {
  const { t } = useTranslation("admin");
  const navigate = useNavigate();
  const { form, formProps, saveButtonProps } = useForm<AdminDto, HttpError, CreateAdminValues>({
    resource: "administrators",
    action: "create",
    redirect: "show",
    successNotification: (data) => ({
      type: "success",
      message: t("create.created", { name: data?.data.name ?? "" }),
    }),
    errorNotification: codedErrorNotification(t, t("create.failed"), Object.keys(FIELD_OF_CODE)),
    onMutationError: (error) => {
      const field = FIELD_OF_CODE[errorCodeOf(error) ?? ""];
      if (field) form.setFields([{ name: field, errors: [translateApiError(error, t)] }]);
    },
  });
  const password: string = Form.useWatch("password", form) ?? "";

  return (
    <>
      <PageHeader
        title={t("create.title")}
        back={
          <Button
            type="text"
            icon={<ArrowLeftOutlined aria-hidden />}
            aria-label={t("show.back")}
            onClick={() => navigate(ADMIN_PATHS.list)}
          />
        }
      />
      <Panel>
        <Form
          {...formProps}
          layout="vertical"
          initialValues={{ permissions: [] }}
          style={{ maxWidth: 760 }}
        >
          <NameField />
          <EmailField />
          <Form.Item
            name="password"
            label={t("fields.initialPassword")}
            rules={[
              { required: true, message: t("form.passwordRequired") },
              {
                validator: (_, value: string | undefined) =>
                  !value || brokenPasswordRules(value).length === 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t("password.weak"))),
              },
            ]}
            extra={<PasswordChecklist id="initial-password-rules" password={password} />}
          >
            <Input.Password autoComplete="new-password" aria-describedby="initial-password-rules" />
          </Form.Item>
          <Form.Item name="permissions" label={t("permissions.title")}>
            <PermissionCheckboxes />
          </Form.Item>
          <Flex gap={8} justify="flex-end">
            <Button onClick={() => navigate(ADMIN_PATHS.list)}>{t("common:cancel")}</Button>
            <Button type="primary" {...saveButtonProps}>
              {t("create.submit")}
            </Button>
          </Flex>
        </Form>
      </Panel>
    </>
  );
}
