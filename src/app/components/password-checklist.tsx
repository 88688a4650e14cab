import { CheckCircleFilled, CloseCircleOutlined } from "@ant-design/icons";
import { Form, Input, theme, type FormRule } from "antd";
import { useTranslation } from "react-i18next";
import {
  brokenPasswordRules,
  PASSWORD_RULES,
  PASSWORD_MIN_LENGTH,
} from "../../shared/password-policy";

/** A new password's form rule: every rule of the policy kept (the checklist shows which not). */
export const strongPasswordRule = (message: string): FormRule => ({
  validator: (_, value: string | undefined) =>
    !value || brokenPasswordRules(value).length === 0
      ? Promise.resolve()
      : Promise.reject(new Error(message)),
});

/** A password typed again: its form rule, the same as the password in field `field`. */
export const samePasswordRule =
  (field: string, message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, value: string | undefined) =>
      !value || value === getFieldValue(field)
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  });

/**
 * The shared password rules as a live checklist under a password field. Rule texts live in the
 * `admin` namespace (`password.rules.<key>`), the same keys the server's WEAK_PASSWORD names.
 */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation("admin");
  const { token } = theme.useToken();
  return (
    <ul
      id={id}
      aria-label={t("password.rulesTitle")}
      style={{ listStyle: "none", padding: 0, margin: "4px 0 0" }}
    >
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.key} style={{ display: "flex", gap: 6, alignItems: "center" }}>
            {met ? (
              <CheckCircleFilled aria-hidden style={{ color: "#237804" }} />
            ) : (
              <CloseCircleOutlined aria-hidden style={{ color: "#8c8c8c" }} />
            )}
            <span style={{ color: met ? token.colorText : token.colorTextSecondary }}>
              {t(`password.rules.${rule.key}`, { min: PASSWORD_MIN_LENGTH })}
              <span className="visually-hidden">
                {" "}
                ({t(met ? "password.met" : "password.unmet")})
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A new password and the same typed again, a form's two inputs: the first checked against the
 * policy as typed (the checklist under it, `checklistId`), the second the same as the first.
 */
export function NewPasswordItems({
  name,
  confirmName,
  password,
  checklistId,
  words,
}: {
  name: string;
  confirmName: string;
  /** The password as typed so far (for the checklist). */
  password: string;
  checklistId: string;
  words: {
    label: string;
    required: string;
    weak: string;
    confirmLabel: string;
    confirmRequired: string;
    mismatch: string;
  };
}) {
  return (
    <>
      <Form.Item
        name={name}
        label={words.label}
        rules={[{ required: true, message: words.required }, strongPasswordRule(words.weak)]}
        extra={<PasswordChecklist id={checklistId} password={password} />}
      >
        <Input.Password autoComplete="new-password" aria-describedby={checklistId} />
      </Form.Item>
      <Form.Item
        name={confirmName}
        label={words.confirmLabel}
        dependencies={[name]}
        rules={[
          { required: true, message: words.confirmRequired },
          samePasswordRule(name, words.mismatch),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
