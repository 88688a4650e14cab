import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";

import type { Counters } from "./counters";

/** What @fastify/rate-limit hands a store's `child`: a route's merged limit options. */
interface LimitParams {
  nameSpace?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * Names a limiter made with `app.createRateLimit`: its counters need a scope of their own, and
 * such a limiter has no route to take one from. Spread it into the limiter's options.
 */
export const limiterScope = (name: string): object => ({ nameSpace: name });

function scopeOf(params: LimitParams): string {
  if (params.nameSpace) return params.nameSpace;
  const { method, url } = params.routeInfo ?? {};
  if (url) return `${Array.isArray(method) ? method.join(",") : (method ?? "")} ${url}`;
  throw new Error("A rate limit without a route needs a scope: spread limiterScope(name) into it");
}

/**
 * @fastify/rate-limit's store on the database's counters, so that N server instances share each
 * limit (its default store counts in the memory of one process). Each route's limit, and each
 * named limiter, counts its keys in a scope of its own. Fixed windows, as the default store.
 */
export function databaseRateLimitStore(counters: Counters): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(private readonly scope: string) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      counters.hit(`${this.scope}|${key}`, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(params: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
      // The plugin hands over the limit's merged options, with the route as `routeInfo`.
      return new DatabaseRateLimitStore(scopeOf(params as unknown as LimitParams));
    }
  }
  // The plugin constructs the root store with its global options; this server sets no global limit.
  return class extends DatabaseRateLimitStore {
    constructor() {
      super("global");
    }
  };
}
