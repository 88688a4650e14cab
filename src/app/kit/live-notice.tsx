/**
 * Live updates on a list (docs/live-updates.md): "N new or changed: refresh" when someone else
 * adds or changes records of the module, counted by record; the refresh reads the list again
 * with its page, filters, sort and selection untouched. Through Refine's live provider
 * (src/providers/live.ts), so the console's own changes are not counted.
 */
import { ReloadOutlined } from "@ant-design/icons";
import { useSubscription, type LiveEvent } from "@refinedev/core";
import { Alert, Button } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";

export interface LiveNoticeProps {
  /** The module's name (Refine's resource). */
  resource: string;
  /** Reads the list again (the table query's refetch). */
  onRefresh: () => unknown;
}

interface Pending {
  ids: Set<string>;
  /** A change too large to count (many rows at once, or a reset). */
  many: boolean;
}

const NONE: Pending = { ids: new Set(), many: false };

/** What `pending` becomes with `event`. */
export function withEvent(pending: Pending, event: LiveEvent): Pending {
  const ids = event.payload?.ids;
  if (event.type === "*" || !ids || ids.length === 0) return { ids: pending.ids, many: true };
  const next = new Set(pending.ids);
  for (const id of ids) next.add(String(id));
  return { ids: next, many: pending.many };
}

export function LiveNotice({ resource, onRefresh }: LiveNoticeProps) {
  const { t } = useTranslation("kit");
  const [pending, setPending] = useState<Pending>(NONE);
  const handler = useRef((event: LiveEvent) => setPending((current) => withEvent(current, event)));
  useSubscription({
    channel: `resources/${resource}`,
    types: ["created", "updated", "deleted", "*"],
    onLiveEvent: (event) => handler.current(event),
  });
  if (pending.ids.size === 0 && !pending.many) return null;
  const refresh = () => {
    setPending(NONE);
    void onRefresh();
  };
  return (
    <Alert
      role="status"
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      message={pending.many ? t("live.noticeMany") : t("live.notice", { count: pending.ids.size })}
      action={
        <Button size="small" icon={<ReloadOutlined aria-hidden />} onClick={refresh}>
          {t("live.refresh")}
        </Button>
      }
    />
  );
}
