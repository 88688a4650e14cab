import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

import { HttpError } from "../errors";

/** A URL pattern's segment as the router ranks it when several patterns match: fixed text first. */
const PARAM = 1;
const WILDCARD = 2;
type Segment = string | typeof PARAM | typeof WILDCARD;

/** One URL pattern (parameters unnamed: `/a/:id` and `/a/:name` are one) and its methods. */
interface RoutePattern {
  segments: Segment[];
  methods: Set<string>;
}

/** The order `Allow` lists methods in; any other method follows, alphabetically. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** A route URL's segments: `:id` (or any segment with a parameter) is PARAM, `*` WILDCARD. */
function segmentsOf(url: string): Segment[] {
  return url
    .split("/")
    .slice(1)
    .map((part) => (part === "*" ? WILDCARD : part.includes(":") ? PARAM : part));
}

const rankOf = (segment: Segment) => (typeof segment === "string" ? 0 : segment);

/** Whether the router would take `path` (its decoded segments) for the pattern, method aside. */
function matches(pattern: Segment[], path: string[]): boolean {
  for (const [index, segment] of pattern.entries()) {
    if (segment === WILDCARD) return true;
    const part = path[index];
    // A parameter takes any segment, an empty one too, as find-my-way does.
    if (part === undefined || (segment !== PARAM && part !== segment)) return false;
  }
  return pattern.length === path.length;
}

/** Negative when `a` is the more specific pattern: the router tries fixed text before a parameter. */
function bySpecificity(a: RoutePattern, b: RoutePattern): number {
  const length = Math.min(a.segments.length, b.segments.length);
  for (let index = 0; index < length; index += 1) {
    const difference = rankOf(a.segments[index]!) - rankOf(b.segments[index]!);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Split before decoding: an encoded `/` (%2F) stays inside its segment, as in the router. */
function decodedSegments(path: string): string[] {
  return path
    .split("/")
    .slice(1)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

const methodRank = (method: string) => {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
};
const allowHeader = (methods: Set<string>) =>
  [...methods].sort((a, b) => methodRank(a) - methodRank(b) || a.localeCompare(b)).join(", ");

/**
 * The routes under a prefix by URL pattern, and which pattern owns a concrete path: the most
 * specific one that matches it, as the router would pick it were it to serve every method there.
 */
export function createRouteTable() {
  const patterns = new Map<string, RoutePattern>();
  return {
    record(methods: string | string[], url: string) {
      const segments = segmentsOf(url);
      const key = segments.map((segment) => `/${String(segment)}`).join("");
      const pattern = patterns.get(key) ?? { segments, methods: new Set<string>() };
      for (const method of [methods].flat()) pattern.methods.add(method.toUpperCase());
      patterns.set(key, pattern);
    },
    ownerOf(path: string): RoutePattern | undefined {
      const segments = decodedSegments(path);
      const candidates = [...patterns.values()].filter((pattern) =>
        matches(pattern.segments, segments),
      );
      return candidates.sort(bySpecificity)[0];
    },
  };
}

/**
 * A wrong method on a known path answers 405 METHOD_NOT_ALLOWED with `Allow` listing the methods
 * the path has, rather than 404, or rather than whatever a parametric sibling makes of a fixed
 * segment (`PATCH /administrators/aggregation` reached `PATCH /administrators/:id` and was refused
 * as an "Invalid id"). Installs an onRoute hook recording every route under `prefix`, and an
 * onRequest hook, to be added before the access check, that refuses a request whose path a more
 * specific route owns: 405 reveals no more than the OpenAPI document does, so it comes before
 * authentication and validation. Returns the check, for the not-found handler to call too.
 */
export function installMethodNotAllowed(app: FastifyInstance, prefix: string) {
  const table = createRouteTable();
  const isUnderPrefix = (url: string) => url === prefix || url.startsWith(`${prefix}/`);

  /** Throws the 405 when `request`'s path is known to the API but not with its method. */
  function refuseUnknownMethod(request: FastifyRequest, reply: FastifyReply): void {
    const path = request.url.split("?")[0] ?? "";
    if (!isUnderPrefix(path)) return;
    const owner = table.ownerOf(path);
    if (!owner || owner.methods.has(request.method)) return;
    const allow = allowHeader(owner.methods);
    reply.header("Allow", allow);
    throw new HttpError(
      405,
      `Method ${request.method} is not allowed on ${path} (allowed: ${allow})`,
      "METHOD_NOT_ALLOWED",
    );
  }

  app.addHook("onRoute", (route) => {
    if (isUnderPrefix(route.url)) table.record(route.method, route.url);
  });
  app.addHook("onRequest", async (request, reply) => {
    const url = request.routeOptions.url;
    // A fixed route is the most specific for its path; only a parameter can stand in for another.
    if (request.is404 || !url || !isUnderPrefix(url) || !/[:*]/.test(url)) return;
    refuseUnknownMethod(request, reply);
  });
  return refuseUnknownMethod;
}
