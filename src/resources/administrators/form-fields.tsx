import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { EMAIL_CHECK_DEBOUNCE_MS, useEmailAvailabilityValidator } from "./email-availability";

/** The name field shared by the create and edit forms. */
export function NameField() {
  const { t } = useTranslation("admin");
  return (
    <Form.Item
      name="name"
      label={t("fields.name")}
      rules={[
        { required: true, whitespace: true, message: t("form.nameRequired") },
        { max: 100, message: t("form.nameTooLong", { max: 100 }) },
      ]}
    >
      <Input autoComplete="off" maxLength={100} />
    </Form.Item>
  );
}

/**
 * The e-mail field: format checked locally, availability asked of the server as the
 * administrator types (after a pause), with the spinner and tick of `hasFeedback`.
 */
export function EmailField({ excludeId }: { excludeId?: number }) {
  const { t } = useTranslation("admin");
  const available = useEmailAvailabilityValidator(excludeId);
  return (
    <Form.Item
      name="email"
      label={t("fields.email")}
      hasFeedback
      validateDebounce={EMAIL_CHECK_DEBOUNCE_MS}
      rules={[
        { required: true, message: t("form.emailRequired") },
        { type: "email", message: t("form.emailInvalid") },
        { validator: available },
      ]}
    >
      <Input type="email" autoComplete="off" />
    </Form.Item>
  );
}
