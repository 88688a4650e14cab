import { CheckCircleOutlined, CloseCircleOutlined, StopOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate } from "@refinedev/core";
import { Button, Popconfirm } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { codedErrorNotification } from "../../app/components/notifications";
import { actionApplies, actionUrl } from "../../app/kit/decision";
import type { AdminDto } from "../../providers/api-types";
import { administrators } from "../../shared/modules/administrators";
import { useSyncSelf } from "./use-sync-self";
import { ifMatchHeaders } from "../../app/kit/version-conflict";

interface StatusToggleProps {
  admin: AdminDto;
  /** `small` inside table rows. */
  size?: "small" | "middle";
}

const statusAction = administrators.actions.status;

/**
 * The status action's verbs as buttons, in the order shown: which of them an administrator gets
 * is the declaration's guard (`whenOf`), the status each sends its `choice`.
 */
const BUTTONS: ReadonlyArray<{ verb: string; icon: ReactNode; danger: boolean }> = [
  { verb: "enable", icon: <CheckCircleOutlined aria-hidden />, danger: false },
  { verb: "disable", icon: <StopOutlined aria-hidden />, danger: true },
  { verb: "ban", icon: <CloseCircleOutlined aria-hidden />, danger: true },
];

/**
 * Disables an active administrator or re-enables a disabled or banned one, and bans an active or
 * disabled one, each after confirmation, through the module's declared status action. Super
 * administrators cannot be changed, so they get no button; the server refuses anyway.
 */
export function StatusToggle({ admin, size = "middle" }: StatusToggleProps) {
  if (admin.isSuperAdmin) return null;
  return (
    <>
      {BUTTONS.filter(({ verb }) => actionApplies(statusAction, admin, verb)).map((button) => (
        <StatusButton key={button.verb} admin={admin} size={size} {...button} />
      ))}
    </>
  );
}

function StatusButton({
  admin,
  size,
  verb,
  icon,
  danger,
}: Required<StatusToggleProps> & (typeof BUTTONS)[number]) {
  const { t } = useTranslation("admin");
  const syncSelf = useSyncSelf();
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation<AdminDto>();
  const { name } = admin;
  const done = statusAction.done[verb] ?? verb;

  const confirm = () =>
    mutate(
      {
        // The module's declared status action (guarded, audited and locked by the kit).
        url: actionUrl(administrators, statusAction, admin.id),
        method: "patch",
        values: { status: statusAction.choice?.values[verb] },
        // Based on the administrator as shown (the record's version: docs/versions.md).
        config: { headers: ifMatchHeaders(administrators, admin.id, admin) },
        successNotification: {
          type: "success",
          message: t(`statusToggle.${done}`, { name }),
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
      title={t(`statusToggle.${verb}Title`, { name })}
      description={t(`statusToggle.${verb}Body`)}
      okText={t(`statusToggle.${verb}`)}
      cancelText={t("common:cancel")}
      okButtonProps={{ danger }}
      onConfirm={confirm}
    >
      <Button
        size={size}
        danger={danger}
        icon={icon}
        loading={mutation.isPending}
        aria-label={t(`statusToggle.${verb}Named`, { name })}
      >
        {t(`statusToggle.${verb}`)}
      </Button>
    </Popconfirm>
  );
}
