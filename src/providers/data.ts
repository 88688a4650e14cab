import type { BaseKey, BaseRecord, DataProvider, MetaQuery } from "@refinedev/core";

import { encodeAggregationQuery, MAX_PAGE_SIZE } from "./aggregation-encoder";
import { ApiError, initOf, isApiError, UNEXPECTED_ERROR_MESSAGE } from "./api-error";
import { explainInPlace } from "./error-handler";
import { API_BASE, http, type HttpMethod } from "./http";

/**
 * The console's data provider: record calls on `/api/{collection}/{id}` (as Refine's simple-rest
 * sends them), the aggregation contract for lists and a plain `custom` for everything else
 * (`/user-mgmt/*`). Resources describe themselves in `meta` (`collection`, `listKey`); nothing
 * here knows any entity.
 */

/** Record paths start here; the http client supplies the API base. */
const REST_ROOT = "/api";

/** The collection a resource reads and writes: `meta.collection`, else the resource name. */
export function collectionOf(resource: string, meta?: MetaQuery): string {
  const collection: unknown = meta?.collection;
  return typeof collection === "string" && collection !== "" ? collection : resource;
}

/** The key the aggregation answer lists its rows under: `meta.listKey`, else the collection. */
export function listKeyOf(resource: string, meta?: MetaQuery): string {
  const listKey: unknown = meta?.listKey;
  return typeof listKey === "string" && listKey !== "" ? listKey : collectionOf(resource, meta);
}

/**
 * Where a resource's list lives: `meta.listPath` (relative to the API base, e.g. a filtered
 * view such as `/api/things/archived` that answers the aggregation contract), else
 * `/api/{collection}/aggregation`.
 */
export function listPathOf(resource: string, meta?: MetaQuery): string {
  const listPath: unknown = meta?.listPath;
  if (typeof listPath === "string" && listPath !== "") return listPath;
  return `${REST_ROOT}/${collectionOf(resource, meta)}/aggregation`;
}

/**
 * Paths are relative to the API base. Refine's convention is `${useApiUrl()}/path`, which already
 * carries the base; strip it so the http client does not prefix it twice.
 */
export function toApiPath(url: string): string {
  if (API_BASE !== "" && url.startsWith(`${API_BASE}/`)) return url.slice(API_BASE.length);
  return url;
}

/**
 * Refine spreads React Query's context into `meta` (`meta.signal`); passing it on lets React
 * Query abort a request nobody waits for any more instead of leaving it open up to the timeout.
 */
function signalOf(meta?: MetaQuery): AbortSignal | undefined {
  const signal: unknown = meta?.signal;
  return signal instanceof AbortSignal ? signal : undefined;
}

function unreadableList(status: number, body: unknown): ApiError {
  return new ApiError({
    kind: "malformed",
    statusCode: status,
    message: UNEXPECTED_ERROR_MESSAGE,
    data: body,
    method: "get",
  });
}

/**
 * `meta.errorPrefix`: what a list is (its title), so the list-failure toast can say which list
 * failed (docs/errors.md, "prefixed with the list's title").
 */
function withListPrefix(error: unknown, meta?: MetaQuery): unknown {
  const prefix: unknown = meta?.errorPrefix;
  if (!isApiError(error) || typeof prefix !== "string" || prefix === "") return error;
  return new ApiError({ ...initOf(error), prefix });
}

const getList: DataProvider["getList"] = async <TData extends BaseRecord = BaseRecord>({
  resource,
  pagination,
  sorters,
  filters,
  meta,
}: Parameters<DataProvider["getList"]>[0]) => {
  try {
    const response = await http.get<Record<string, unknown>>(listPathOf(resource, meta), {
      params: encodeAggregationQuery({ filters, sorters, pagination }),
      signal: signalOf(meta),
    });
    const body = response.data;
    const rows =
      typeof body === "object" && body !== null ? body[listKeyOf(resource, meta)] : undefined;
    if (!Array.isArray(rows)) throw unreadableList(response.status, body);
    const total = typeof body.totalCount === "number" ? body.totalCount : rows.length;
    // The reference server stops counting at 1,000 and says so; other servers count exactly.
    const totalExact = body.totalCountExact !== false;
    // A list that sums its figures over every matching row answers them beside the page.
    const totals =
      typeof body.totals === "object" && body.totals !== null ? body.totals : undefined;
    return { data: rows as TData[], total, totalExact, ...(totals ? { totals } : {}) };
  } catch (error) {
    throw withListPrefix(error, meta);
  }
};

const getMany: NonNullable<DataProvider["getMany"]> = async <
  TData extends BaseRecord = BaseRecord,
>({
  resource,
  ids,
  meta,
}: Parameters<NonNullable<DataProvider["getMany"]>>[0]) => {
  // The contract has no "many by id" call; an `$in` filter on id in pages of the largest size does.
  const pages: TData[] = [];
  for (let start = 0; start < ids.length; start += MAX_PAGE_SIZE) {
    const chunk = ids.slice(start, start + MAX_PAGE_SIZE);
    const { data } = await getList<TData>({
      resource,
      meta,
      filters: [{ field: "id", operator: "in", value: chunk }],
      pagination: { currentPage: 1, pageSize: chunk.length, mode: "server" },
    });
    pages.push(...data);
  }
  return { data: pages };
};

const custom: NonNullable<DataProvider["custom"]> = async <TData extends BaseRecord = BaseRecord>({
  url,
  method,
  payload,
  query,
  headers,
  filters,
  sorters,
  meta,
}: Parameters<NonNullable<DataProvider["custom"]>>[0]) => {
  const aggregation =
    filters || sorters ? encodeAggregationQuery({ filters, sorters, pagination: false }) : {};
  const response = await http.request<TData>({
    url: toApiPath(url),
    method,
    data: payload,
    params: { ...(query as Record<string, unknown> | undefined), ...aggregation },
    headers: headers as Record<string, string> | undefined,
    signal: signalOf(meta),
  });
  return { data: response.data };
};

/** `meta.headers`: extra headers a resource sends with its record calls. */
function metaHeaders(meta?: MetaQuery): Record<string, string> | undefined {
  const headers: unknown = meta?.headers;
  return typeof headers === "object" && headers !== null
    ? (headers as Record<string, string>)
    : undefined;
}

/**
 * One record call on `/api/{collection}` or `/api/{collection}/{id}`, answering the body as
 * `data`. `meta.method` overrides the method, as simple-rest allowed (update is PATCH unless
 * it says PUT).
 */
async function recordCall<TData>(
  method: HttpMethod,
  params: { resource: string; id?: BaseKey; variables?: unknown; meta?: MetaQuery },
): Promise<{ data: TData }> {
  const { resource, id, variables, meta } = params;
  const collection = `${REST_ROOT}/${collectionOf(resource, meta)}`;
  const asked: unknown = meta?.method;
  const { data } = await http.request<TData>({
    url: id === undefined ? collection : `${collection}/${id}`,
    method: typeof asked === "string" ? (asked as HttpMethod) : method,
    data: variables,
    headers: metaHeaders(meta),
  });
  return { data };
}

export const dataProvider: DataProvider = {
  getList,
  getMany,
  // A record that does not exist is the detail page's to say ("There is no user with ID 999999").
  getOne: <TData extends BaseRecord = BaseRecord>(params: Parameters<DataProvider["getOne"]>[0]) =>
    recordCall<TData>("get", params).catch((error: unknown) => {
      throw isApiError(error) && error.statusCode === 404 ? explainInPlace(error) : error;
    }),
  create: (params) => recordCall("post", params),
  update: (params) => recordCall("patch", params),
  deleteOne: (params) => recordCall("delete", params),
  getApiUrl: () => API_BASE,
  custom,
};
