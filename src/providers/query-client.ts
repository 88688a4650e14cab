import type { QueryClientConfig } from "@tanstack/react-query";

import { isApiError } from "./api-error";

/** docs/backoffice.md: three retries, delays capped at 30 s, cache 5 minutes, stale at once. */
export const MAX_RETRIES = 3;
export const MAX_RETRY_DELAY_MS = 30_000;
export const CACHE_TIME_MS = 5 * 60 * 1000;

/**
 * Only a failure that may pass is worth repeating: no answer at all, or the server failing (5xx).
 * A 4xx is the server's considered answer and asking again gets the same one.
 */
export function isRetryableError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === "network") return true;
  return error.statusCode !== undefined && error.statusCode >= 500;
}

/** React Query's `retry`: `failureCount` is the number of failures before this decision. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_RETRIES && isRetryableError(error);
}

/** 1 s, 2 s, 4 s, … never more than 30 s. */
export function retryDelay(failureCount: number): number {
  return Math.min(1000 * 2 ** failureCount, MAX_RETRY_DELAY_MS);
}

/**
 * Pass to `<Refine options={{ reactQuery: { clientConfig: queryClientConfig } }}>`: given a config
 * (not a client), Refine keeps its own defaults (no refetch on focus, previous data while paging)
 * underneath these.
 */
export const queryClientConfig: QueryClientConfig = {
  defaultOptions: {
    queries: {
      retry: shouldRetryQuery,
      retryDelay,
      gcTime: CACHE_TIME_MS,
      staleTime: 0,
    },
    // Repeating a state change the server may already have applied could apply it twice.
    mutations: { retry: false },
  },
};
