import { StopOutlined, CheckCircleOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate } from "@refinedev/core";
import { Button, Popconfirm } from "antd";
import { useTranslation } from "react-i18next";
import { codedErrorNotification } from "../../app/components/notifications";
import { actionUrl } from "../../app/kit/decision";
import type { AdminDto } from "../../providers/api-types";
import { administrators } from "../../shared/modules/administrators";
import { useSyncSelf } from "./use-sync-self";

interface StatusToggleProps {
  admin: AdminDto;
  /** `small` inside table rows. */
  size?: "small" | "middle";
}

/**
 * Disables an active administrator or re-enables a disabled or banned one, after confirmation.
 * Super administrators cannot be changed, so they get no button; the server refuses anyway.
 */
export function StatusToggle({ admin, size = "middle" }: StatusToggleProps) {
  const { t } = useTranslation("admin");
  const syncSelf = useSyncSelf();
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation<AdminDto>();
  if (admin.isSuperAdmin) return null;

  const enabling = admin.status !== "active";
  const values = { status: enabling ? "active" : "disabled" } as const;
  const name = admin.name;

  const confirm = () =>
    mutate(
      {
        // The module's declared status action (guarded, audited and locked by the kit).
        url: actionUrl(administrators, administrators.actions.status, admin.id),
        method: "patch",
        values,
        successNotification: {
          type: "success",
          message: t(enabling ? "statusToggle.enabled" : "statusToggle.disabled", { name }),
        },
        errorNotification: codedErrorNotification(t, t("statusToggle.failed", { name })),
      },
      {
        onSuccess: ({ data }) => {
          syncSelf(data);
          void invalidate({
            resource: "administrators",
            invalidates: ["list", "detail"],
            id: admin.id,
          });
        },
      },
    );

  return (
    <Popconfirm
      title={t(enabling ? "statusToggle.enableTitle" : "statusToggle.disableTitle", { name })}
      description={t(enabling ? "statusToggle.enableBody" : "statusToggle.disableBody")}
      okText={t(enabling ? "statusToggle.enable" : "statusToggle.disable")}
      cancelText={t("common:cancel")}
      okButtonProps={{ danger: !enabling }}
      onConfirm={confirm}
    >
      <Button
        size={size}
        danger={!enabling}
        icon={enabling ? <CheckCircleOutlined aria-hidden /> : <StopOutlined aria-hidden />}
        loading={mutation.isPending}
        aria-label={t(enabling ? "statusToggle.enableNamed" : "statusToggle.disableNamed", {
          name,
        })}
      >
        {t(enabling ? "statusToggle.enable" : "statusToggle.disable")}
      </Button>
    </Popconfirm>
  );
}
