/**
 * The dashboard's figures follow the records (docs/live-updates.md): any change the live stream
 * brings (only of modules this administrator may read) reads the figures again, at most once
 * every DASHBOARD_LIVE_MS, so a burst of changes costs one request.
 */
import { useEffect, useRef } from "react";

import { consoleLiveConnection, type LiveConnection } from "../../providers/live";

export const DASHBOARD_LIVE_MS = 5_000;

export function useLiveRefetch(refetch: () => unknown, given?: LiveConnection) {
  const fromConsole = consoleLiveConnection();
  const connection = given ?? fromConsole;
  const latest = useRef(refetch);
  useEffect(() => {
    latest.current = refetch;
  });
  useEffect(() => {
    if (!connection) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const schedule = () => {
      if (timer) return;
      const wait = Math.max(0, last + DASHBOARD_LIVE_MS - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        void latest.current();
      }, wait);
    };
    const stop = connection.listen({ onChange: schedule, onReset: schedule });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [connection]);
}
