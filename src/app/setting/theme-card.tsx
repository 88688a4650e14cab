import { useCustomMutation } from "@refinedev/core";
import { Radio } from "antd";
import { useTranslation } from "react-i18next";

import type { AdminDto } from "../../providers/api-types";
import { setCurrentAdmin, useCurrentAdmin } from "../../providers/current-admin";
import { ADMIN_THEMES, type AdminTheme } from "../../shared/domain";
import { codedErrorNotification } from "../components/notifications";
import { Panel } from "../components/panel";
import { ACCOUNT_PATH } from "./language-card";

/**
 * The console's colour scheme: saved on the server for this administrator (so it follows them to
 * any browser) and applied to the whole console as soon as it is saved.
 */
export function ThemeCard() {
  const { t } = useTranslation("setting");
  const admin = useCurrentAdmin();
  const { mutate, mutation } = useCustomMutation<AdminDto>();

  const choose = (theme: AdminTheme) =>
    mutate(
      {
        url: ACCOUNT_PATH,
        method: "patch",
        values: { theme },
        successNotification: () => ({ type: "success", message: t("theme.saved") }),
        errorNotification: codedErrorNotification(t, t("theme.failed")),
      },
      { onSuccess: ({ data }) => setCurrentAdmin(data) },
    );

  return (
    <Panel title={t("theme.title")}>
      <Radio.Group
        aria-label={t("theme.label")}
        value={admin?.theme ?? "light"}
        disabled={mutation.isPending}
        onChange={(event) => choose(event.target.value as AdminTheme)}
        optionType="button"
        buttonStyle="solid"
        options={ADMIN_THEMES.map((value) => ({ value, label: t(`theme.${value}`) }))}
      />
    </Panel>
  );
}
