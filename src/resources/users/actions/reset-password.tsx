import { KeyOutlined } from "@ant-design/icons";
import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../app/format";
import type { UserDetail } from "../../../providers/api-types";
import { resetPasswordRequest, type ResetPasswordAnswer } from "./requests";
import { useUserAction } from "./use-user-action";

/** E-mails the user a one-time password reset link, after confirmation. */
export function ResetPassword({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  const { run, pending } = useUserAction<ResetPasswordAnswer>();
  const name = user.name;

  const send = async () => {
    const done = await run(resetPasswordRequest(user.accountNumber), {
      success: (answer) =>
        t("actions.reset.sent", {
          name,
          email: user.email ?? "",
          until: formatDateTime(answer?.expires_at),
        }),
      failed: t("actions.reset.failed", { name }),
    });
    if (done !== undefined) onChanged();
  };

  return (
    <Popconfirm
      title={t("actions.reset.title", { name })}
      description={t("actions.reset.body")}
      okText={t("actions.reset.button")}
      cancelText={t("actions.cancel")}
      onConfirm={send}
    >
      <Button icon={<KeyOutlined aria-hidden />} loading={pending}>
        {t("actions.reset.button")}
      </Button>
    </Popconfirm>
  );
}
