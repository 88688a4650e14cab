import { useEffect, useSyncExternalStore } from "react";

import type { ChangeRequestCounts } from "../../shared/modules/change-requests";
import { http } from "../../providers/http";

/**
 * What waits for the signed-in administrator (`GET /api/change-requests/counts`): the menu's
 * badge and the dashboard's figures. One store for the whole console, read while something shows
 * it, every minute and at once after a decision or a change sent for approval
 * (refreshChangeRequestCounts). It needs no Refine: the side menu draws it outside a page.
 */
export const CHANGE_REQUEST_COUNTS_PATH = "/api/change-requests/counts";

/** How often the counts are read again while shown. */
export const COUNTS_REFRESH_MS = 60_000;

let counts: ChangeRequestCounts | undefined;
let watchers = 0;
let timer: ReturnType<typeof setInterval> | undefined;
let inFlight: Promise<void> | undefined;
const listeners = new Set<() => void>();

function publish(next: ChangeRequestCounts | undefined) {
  counts = next;
  listeners.forEach((listener) => listener());
}

/** Reads the counts again now (when anything shows them); a failure keeps what was shown. */
export function refreshChangeRequestCounts(): Promise<void> {
  if (watchers === 0) return Promise.resolve();
  inFlight ??= http
    .get<ChangeRequestCounts>(CHANGE_REQUEST_COUNTS_PATH)
    .then(({ data }) => {
      if (typeof data?.toCheck === "number" && typeof data.mine === "number") publish(data);
    })
    .catch(() => undefined)
    .finally(() => {
      inFlight = undefined;
    });
  return inFlight;
}

/** Forgets the counts (signing out), so the next administrator never sees the last one's. */
export function clearChangeRequestCounts(): void {
  heldFor = undefined;
  publish(undefined);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => counts;

/** Whose counts the store holds: another administrator's are never shown. */
let heldFor: number | undefined;

/**
 * The counts for a component that shows them, of administrator `adminId` (the signed-in one):
 * undefined until they have been read; no administrator (not signed in yet) reads nothing.
 */
export function useChangeRequestCounts(
  adminId: number | undefined,
): ChangeRequestCounts | undefined {
  useEffect(() => {
    if (adminId === undefined) return undefined;
    if (heldFor !== adminId) {
      heldFor = adminId;
      publish(undefined);
    }
    watchers += 1;
    void refreshChangeRequestCounts();
    timer ??= setInterval(() => void refreshChangeRequestCounts(), COUNTS_REFRESH_MS);
    return () => {
      watchers -= 1;
      if (watchers === 0 && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  }, [adminId]);
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  return adminId !== undefined && heldFor === adminId ? current : undefined;
}
