import { ArrowLeftOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Flex, Form, Input } from "antd";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { z } from "zod";
import { codedErrorNotification, errorCodeOf } from "../../app/components/notifications";
import { PageHeader } from "../../app/components/page-header";
import { Panel } from "../../app/components/panel";
import { PasswordChecklist } from "../../app/components/password-checklist";
import {
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  pendingText,
  reasonHeaders,
  ReasonInput,
  useRefreshChangeRequests,
} from "../../app/kit/four-eyes";
import type { AdminDto } from "../../providers/api-types";
import { translateApiError } from "../../providers/errors";
import { isPendingApproval } from "../../shared/kit/four-eyes";
import { administrators as administratorsModule } from "../../shared/modules/administrators";
import { brokenPasswordRules } from "../../shared/password-policy";
import { EmailField, NameField } from "./form-fields";
import { ADMIN_PATHS, adminShowPath } from "./paths";
import { PermissionCheckboxes } from "./permission-checkboxes";

/** What the screen's inputs hold and send: the declaration's create form. */
type CreateAdminValues = z.input<NonNullable<typeof administratorsModule.create>["body"]>;
type Reason = { [CHANGE_REASON_FIELD]?: string };

/** Coded refusals that belong under one field. */
const FIELD_OF_CODE: Record<string, keyof CreateAdminValues> = {
  EMAIL_TAKEN: "email",
  WEAK_PASSWORD: "password",
};

/** A new administrator waits for a second approver (FormDecl.fourEyes), who reads the reason. */
const FOUR_EYES = administratorsModule.create!.fourEyes;

export default function AdministratorCreate() {
  const { t } = useTranslation(["admin", "kit"]);
  const navigate = useNavigate();
  const refreshChangeRequests = useRefreshChangeRequests();
  // The reason typed for the approver: a header, never part of the new administrator.
  const reason = useRef<string>(undefined);
  const { form, formProps, saveButtonProps } = useForm<AdminDto, HttpError, CreateAdminValues>({
    resource: "administrators",
    action: "create",
    // Sent for approval, no account exists yet: back to the list, not to its page.
    redirect: false,
    mutationMeta: {
      get headers() {
        return reasonHeaders(reason.current);
      },
    },
    onMutationSuccess: ({ data }) => {
      if (isPendingApproval(data)) {
        void refreshChangeRequests();
        navigate(ADMIN_PATHS.list);
      } else navigate(adminShowPath(data.id));
    },
    successNotification: (data) => ({
      type: "success",
      message: isPendingApproval(data?.data)
        ? pendingText(t, [data.data])
        : t("create.created", { name: data?.data.name ?? "" }),
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
          onFinish={({ [CHANGE_REASON_FIELD]: given, ...body }: CreateAdminValues & Reason) => {
            reason.current = given;
            return formProps.onFinish?.(body);
          }}
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
          <FourEyesNotice decl={FOUR_EYES} thresholdSen={undefined} />
          <ReasonInput />
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
