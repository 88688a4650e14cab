import { KeyOutlined } from "@ant-design/icons";
import { useCustomMutation } from "@refinedev/core";
import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";
import { codedErrorNotification } from "../../app/components/notifications";
import { formatDateTime } from "../../app/format";
import type { AdminDto } from "../../providers/api-types";

/** `POST /api/administrators/{id}/password-reset` answer. */
interface ResetAnswer {
  status: "sent";
  expires_at: string;
}

/**
 * E-mails another administrator a one-time link to set a new password, after confirmation: nobody
 * sets a colleague's password (the server refuses unless the caller holds every code the
 * administrator holds, and only a super administrator acts on a super administrator).
 */
export function ResetAdministratorPassword({ admin }: { admin: AdminDto }) {
  const { t } = useTranslation("admin");
  const { mutate, mutation } = useCustomMutation<ResetAnswer>();
  const name = admin.name;

  const send = () =>
    mutate({
      url: `/api/administrators/${admin.id}/password-reset`,
      method: "post",
      values: {},
      successNotification: (answer) => ({
        type: "success",
        message: t("resetPassword.sent", {
          name,
          email: admin.email,
          until: formatDateTime(answer?.data.expires_at),
        }),
      }),
      errorNotification: codedErrorNotification(t, t("resetPassword.failed", { name })),
    });

  return (
    <Popconfirm
      title={t("resetPassword.title", { name })}
      description={t("resetPassword.body", { email: admin.email })}
      okText={t("resetPassword.send")}
      cancelText={t("common:cancel")}
      onConfirm={send}
    >
      <Button icon={<KeyOutlined aria-hidden />} loading={mutation.isPending}>
        {t("resetPassword.button")}
      </Button>
    </Popconfirm>
  );
}
