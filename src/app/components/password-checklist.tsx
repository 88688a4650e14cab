import { CheckCircleFilled, CloseCircleOutlined } from "@ant-design/icons";
import { theme } from "antd";
import { useTranslation } from "react-i18next";
import { PASSWORD_RULES, PASSWORD_MIN_LENGTH } from "../../shared/password-policy";

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
