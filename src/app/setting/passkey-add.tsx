import { PlusOutlined } from "@ant-design/icons";
import { useNotification } from "@refinedev/core";
import { Button, Flex, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { registerPasskey } from "../../providers/passkey";
import type { PasskeyAdded } from "../../shared/schemas/auth";
import { notifyPasskeyFailure } from "./passkey-failure";
import { deviceName } from "./user-agent";

/** The longest name the server keeps for a passkey. */
const NAME_MAX = 60;

/**
 * "Add a passkey": a name for it (this browser's, "Chrome on Linux", unless the administrator
 * gives another), then the browser's prompt; a recent proof is asked first when the session's is
 * stale (the http client's step-up).
 */
export function PasskeyAdd({ onAdded }: { onAdded: (added: PasskeyAdded) => void }) {
  const { t } = useTranslation("security");
  const { open } = useNotification();
  const [naming, setNaming] = useState(false);
  const [busy, setBusy] = useState(false);
  const suggested = deviceName(navigator.userAgent, {
    browserOn: (browser, os) => t("sessions.browserOn", { browser, os }),
    unknown: t("passkeys.defaultName"),
  }).slice(0, NAME_MAX);

  const add = async ({ name }: { name: string }) => {
    setBusy(true);
    try {
      const added = await registerPasskey(name.trim());
      open?.({ type: "success", message: t("passkeys.added") });
      setNaming(false);
      onAdded(added);
    } catch (error) {
      notifyPasskeyFailure(error, t("passkeys.addFailed"), t, open);
    } finally {
      setBusy(false);
    }
  };

  if (!naming) {
    return (
      <Button icon={<PlusOutlined aria-hidden />} onClick={() => setNaming(true)}>
        {t("passkeys.add")}
      </Button>
    );
  }
  return (
    <Form<{ name: string }>
      layout="vertical"
      initialValues={{ name: suggested }}
      onFinish={(values) => void add(values)}
      style={{ width: "100%", maxWidth: 360 }}
    >
      <Form.Item
        name="name"
        label={t("passkeys.name")}
        extra={<Typography.Text type="secondary">{t("passkeys.nameHint")}</Typography.Text>}
        rules={[{ required: true, whitespace: true, message: t("passkeys.nameRequired") }]}
      >
        <Input maxLength={NAME_MAX} autoFocus autoComplete="off" />
      </Form.Item>
      <Flex gap={8} wrap>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t("passkeys.create")}
        </Button>
        <Button onClick={() => setNaming(false)} disabled={busy}>
          {t("common:cancel")}
        </Button>
      </Flex>
    </Form>
  );
}
