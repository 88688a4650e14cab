import { WalletFilled } from "@ant-design/icons";
import { useTranslation } from "react-i18next";

/** The product's mark and name; the name hides when the side navigation is collapsed. */
export function Brand({
  collapsed = false,
  inverse = false,
}: {
  collapsed?: boolean;
  inverse?: boolean;
}) {
  const { t } = useTranslation("common");
  return (
    <span
      style={{
        display: "inline-flex",
        alignItems: "center",
        gap: 10,
        fontSize: 16,
        fontWeight: 600,
        whiteSpace: "nowrap",
        color: inverse ? "#ffffff" : "#014f86",
      }}
    >
      <WalletFilled aria-hidden style={{ fontSize: 24, color: inverse ? "#ffffff" : "#2693ed" }} />
      {!collapsed && <span>{t("app.name")}</span>}
    </span>
  );
}
