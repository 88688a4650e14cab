/**
 * Live updates on a list (docs/live-updates.md): "N new or changed: refresh" when someone else
 * adds or changes records of the module, counted by record; the refresh reads the list again
 * with its page, filters, sort and selection untouched. Where that is safe the list updates in
 * place instead: a change of records all shown on this page, with nothing else pending, reads
 * the page again by itself (at most once a second), so no row is added, removed or moved by
 * someone else's new record. Through Refine's live provider (src/providers/live.ts), so the
 * console's own changes are not counted.
 */
import { ReloadOutlined } from "@ant-design/icons";
import { useSubscription, type LiveEvent } from "@refinedev/core";
import { Alert, Button } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** The least time between two in-place updates of one list (a burst of changes reads it once). */
export const IN_PLACE_INTERVAL_MS = 1_000;

export interface LiveNoticeProps {
  /** The module's name (Refine's resource). */
  resource: string;
  /** Reads the list again (the table query's refetch). */
  onRefresh: () => unknown;
  /** The ids of the rows this page shows: a change of only these is updated in place. */
  shown?: readonly (string | number)[];
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

/** Whether `event` changes only rows of `shown` (no record added or removed). */
export function changesOnlyShown(event: LiveEvent, shown: ReadonlySet<string>): boolean {
  const ids = event.payload?.ids;
  return (
    event.type === "updated" &&
    Array.isArray(ids) &&
    ids.length > 0 &&
    ids.every((id) => shown.has(String(id)))
  );
}

export function LiveNotice({ resource, onRefresh, shown = [] }: LiveNoticeProps) {
  const { t } = useTranslation("kit");
  const [pending, setPending] = useState<Pending>(NONE);
  // Read by the subscription's handler as they are now, not as they were when it subscribed.
  const now = useRef({ pending, onRefresh, shown: new Set<string>() });
  useEffect(() => {
    now.current = { pending, onRefresh, shown: new Set(shown.map(String)) };
  });
  const inPlace = useRef<{ timer?: ReturnType<typeof setTimeout>; last: number }>({ last: 0 });
  useEffect(() => () => clearTimeout(inPlace.current.timer), []);
  const updateInPlace = () => {
    const state = inPlace.current;
    if (state.timer) return;
    const wait = Math.max(0, state.last + IN_PLACE_INTERVAL_MS - Date.now());
    state.timer = setTimeout(() => {
      state.timer = undefined;
      state.last = Date.now();
      void now.current.onRefresh();
    }, wait);
  };
  const handler = useRef((event: LiveEvent) => {
    const { pending: current, shown: visible } = now.current;
    const nothingPending = current.ids.size === 0 && !current.many;
    if (nothingPending && changesOnlyShown(event, visible)) updateInPlace();
    else setPending((before) => withEvent(before, event));
  });
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
