/**
 * Live updates on a record's page (docs/live-updates.md): the record is read again when someone
 * else changes it, saying so (or that it was deleted); and who else has it open (presence: announced
 * every PRESENCE_RENEW_MS while the page is open, withdrawn when it closes). Shared by every
 * detail page (the kit's ModuleShow, which the hand-written pages use).
 */
import { EyeOutlined } from "@ant-design/icons";
import { useSubscription } from "@refinedev/core";
import { Alert, Flex, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { http } from "../../providers/http";
import {
  LIVE_PRESENCE_PATH,
  consoleLiveConnection,
  type LiveConnection,
  type LiveViewer,
} from "../../providers/live";

/** How often an open page says it is still open (the server forgets it after 45 s). */
export const PRESENCE_RENEW_MS = 20_000;

export interface RecordLiveProps {
  resource: string;
  id: string | number;
  /** Reads the record again. */
  onRefresh: () => unknown;
  /** Default: the console's (consoleLiveConnection); without one, no presence. */
  connection?: LiveConnection;
}

type Presence = (open: boolean) => Promise<LiveViewer[] | undefined>;

function presenceOf(resource: string, id: string): Presence {
  return async (open) => {
    try {
      const answer = await http.post<{ viewers: LiveViewer[] }>(LIVE_PRESENCE_PATH, {
        module: resource,
        id,
        open,
      });
      return answer.data.viewers;
    } catch {
      // Presence is a courtesy: a failure (a permission gone, the server stopping) shows nobody.
      return undefined;
    }
  };
}

export function RecordLive({ resource, id, onRefresh, connection: given }: RecordLiveProps) {
  const fromConsole = consoleLiveConnection();
  const connection = given ?? fromConsole;
  const { t } = useTranslation("kit");
  const key = String(id);
  const [changed, setChanged] = useState<"changed" | "deleted">();
  const [viewers, setViewers] = useState<LiveViewer[]>([]);
  const handler = useRef<(type: string) => void>(() => undefined);
  // A page that only shows the record is safe to update in place: it is read again at once,
  // and says why it moved.
  useEffect(() => {
    handler.current = (type) => {
      setChanged(type === "deleted" ? "deleted" : "changed");
      if (type !== "deleted") void onRefresh();
    };
  });
  useSubscription({
    channel: `resources/${resource}`,
    types: ["updated", "deleted", "*"],
    params: { id: key, subscriptionType: "useOne" },
    onLiveEvent: (event) => handler.current(event.type),
  });

  // One record per mount (ModuleShow keys it by the record's id).
  useEffect(() => {
    if (!connection) return;
    const announce = presenceOf(resource, key);
    let gone = false;
    const renew = () =>
      void announce(true).then((list) => {
        if (!gone && list) setViewers(list);
      });
    renew();
    const timer = setInterval(renew, PRESENCE_RENEW_MS);
    const stop = connection.listen({
      onPresence(presence) {
        if (presence.module === resource && presence.id === key) setViewers(presence.viewers);
      },
    });
    return () => {
      gone = true;
      clearInterval(timer);
      stop();
      void announce(false);
    };
  }, [resource, key, connection]);

  if (!changed && viewers.length === 0) return null;
  return (
    <Flex vertical gap={8} style={{ marginBottom: 16 }}>
      {changed && (
        <Alert
          role="status"
          type="warning"
          showIcon
          message={t(changed === "deleted" ? "live.recordDeleted" : "live.recordChanged")}
          closable
          onClose={() => setChanged(undefined)}
        />
      )}
      {viewers.length > 0 && (
        <Typography.Text type="secondary">
          <EyeOutlined aria-hidden />{" "}
          {t("live.alsoOpen", { names: viewers.map((viewer) => viewer.name).join(", ") })}
        </Typography.Text>
      )}
    </Flex>
  );
}
