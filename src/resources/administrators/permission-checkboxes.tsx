import { Checkbox, Col, Row, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { PERMISSION_MODULES } from "../../shared/permissions";

interface PermissionCheckboxesProps {
  /** Set by antd's Form.Item, so its label points at the group. */
  id?: string;
  value?: number[];
  onChange?: (codes: number[]) => void;
  disabled?: boolean;
  /** Names the group for assistive technology. */
  "aria-label"?: string;
}

/**
 * The 14 permission modules, one checkbox each with its translated name and code. Works as an
 * antd form control (`value`/`onChange`), so the create form and the editor share it.
 */
export function PermissionCheckboxes({
  id,
  value = [],
  onChange,
  disabled,
  "aria-label": ariaLabel,
}: PermissionCheckboxesProps) {
  const { t } = useTranslation("admin");
  const toggle = (code: number, checked: boolean) => {
    const next = checked ? [...value, code] : value.filter((held) => held !== code);
    // Keep the table's order so what is saved reads the same as what is shown.
    onChange?.(PERMISSION_MODULES.map((m) => m.code).filter((c) => next.includes(c)));
  };

  return (
    <div id={id} role="group" aria-label={ariaLabel ?? t("permissions.title")}>
      <Row gutter={[16, 8]}>
        {PERMISSION_MODULES.map((module) => (
          <Col key={module.key} xs={24} sm={12} lg={8}>
            <Checkbox
              checked={value.includes(module.code)}
              disabled={disabled}
              onChange={(event) => toggle(module.code, event.target.checked)}
            >
              {t(`permissions.modules.${module.key}`)}{" "}
              <Typography.Text type="secondary">({module.code})</Typography.Text>
            </Checkbox>
          </Col>
        ))}
      </Row>
    </div>
  );
}
