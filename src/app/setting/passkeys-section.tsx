import { DeleteOutlined, KeyOutlined } from "@ant-design/icons";
import { useNotification } from "@refinedev/core";
import { Flex, Tag, Tooltip, Typography, theme } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { passkeysSupported, removePasskey } from "../../providers/passkey";
import type { PasskeyAdded, PasskeyDto } from "../../shared/schemas/auth";
import { formatDate } from "../format";
import { ConfirmButton } from "./confirm-button";
import { PasskeyAdd } from "./passkey-add";
import { notifyPasskeyFailure } from "./passkey-failure";

/**
 * The administrator's passkeys on the two-step card: each with its name, when it was added and
 * last used and whether its provider syncs it; adding one (where the browser can) and removing
 * one, which asks first.
 */
export function PasskeysSection({
  passkeys,
  onAdded,
  onRemoved,
}: {
  passkeys: PasskeyDto[];
  onAdded: (added: PasskeyAdded) => void;
  onRemoved: () => void;
}) {
  const { t } = useTranslation("security");
  const { token } = theme.useToken();
  return (
    <Flex vertical gap={12} align="flex-start" style={{ width: "100%" }}>
      <Typography.Title level={3} style={{ fontSize: token.fontSizeLG, margin: 0 }}>
        {t("passkeys.title")}
      </Typography.Title>
      <Typography.Text type="secondary">{t("passkeys.intro")}</Typography.Text>
      {passkeys.length === 0 ? (
        <Typography.Text>{t("passkeys.none")}</Typography.Text>
      ) : (
        <ul
          aria-label={t("passkeys.listLabel")}
          style={{ listStyle: "none", margin: 0, padding: 0, width: "100%" }}
        >
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} onRemoved={onRemoved} />
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <PasskeyAdd onAdded={onAdded} />
      ) : (
        <Typography.Text type="secondary">{t("passkeys.unsupported")}</Typography.Text>
      )}
    </Flex>
  );
}

function PasskeyItem({ passkey, onRemoved }: { passkey: PasskeyDto; onRemoved: () => void }) {
  const { t } = useTranslation("security");
  const { token } = theme.useToken();
  const { open } = useNotification();
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    try {
      await removePasskey(passkey.id);
      open?.({ type: "success", message: t("passkeys.removed") });
      onRemoved();
    } catch (error) {
      notifyPasskeyFailure(error, t("passkeys.removeFailed"), t, open);
      setBusy(false);
    }
  };

  return (
    <li style={{ padding: "8px 0", borderBottom: `1px solid ${token.colorSplit}` }}>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Flex vertical gap={2}>
          <Flex gap={8} align="center" wrap>
            <KeyOutlined aria-hidden />
            <Typography.Text strong>{passkey.name}</Typography.Text>
            {passkey.synced && (
              <Tooltip title={t("passkeys.syncedHint")}>
                <Tag color="blue">{t("passkeys.synced")}</Tag>
              </Tooltip>
            )}
          </Flex>
          <Typography.Text type="secondary">
            {t("passkeys.addedOn", { date: formatDate(passkey.createdAt) })}
            {" · "}
            {passkey.lastUsedAt
              ? t("passkeys.lastUsed", { date: formatDate(passkey.lastUsedAt) })
              : t("passkeys.neverUsed")}
          </Typography.Text>
        </Flex>
        <ConfirmButton
          danger
          icon={<DeleteOutlined aria-hidden />}
          label={t("passkeys.removeLabel", { name: passkey.name })}
          title={t("passkeys.removeTitle")}
          description={t("passkeys.removeBody", { name: passkey.name })}
          okText={t("passkeys.remove")}
          loading={busy}
          onConfirm={() => void remove()}
        >
          {t("passkeys.remove")}
        </ConfirmButton>
      </Flex>
    </li>
  );
}
