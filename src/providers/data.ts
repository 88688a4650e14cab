import type { BaseRecord, DataProvider, MetaQuery } from "@refinedev/core";
import simpleRestDataProvider from "@refinedev/simple-rest";

import { encodeAggregationQuery, MAX_PAGE_SIZE } from "./aggregation-encoder";
import { ApiError, initOf, isApiError, UNEXPECTED_ERROR_MESSAGE } from "./api-error";
import { explainInPlace } from "./error-handler";
import { API_BASE, http } from "./http";

/**
 * The console's data provider: @refinedev/simple-rest for the record calls, whose
 * `/api/{collection}/{id}` paths already fit the contract, plus the aggregation contract for
 * lists and a plain `custom` for everything else (`/user-mgmt/*`). Resources describe themselves
 * in `meta` (`collection`, `listKey`); nothing here knows any entity.
 */

/** simple-rest joins this with the resource; the http client's base URL supplies the API base. */
const REST_ROOT = "/api";

const rest = simpleRestDataProvider(REST_ROOT, http);

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
 * carries the base; strip it so axios does not prefix it twice.
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
 * failed (errors.md, "with an optional prefix").
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

const custom: NonNullable<DataProvider["custom"]> = async ({
  url,
  method,
  payload,
  query,
  headers,
  filters,
  sorters,
  meta,
}) => {
  const aggregation =
    filters || sorters ? encodeAggregationQuery({ filters, sorters, pagination: false }) : {};
  const response = await http.request({
    url: toApiPath(url),
    method,
    data: payload,
    params: { ...(query as Record<string, unknown> | undefined), ...aggregation },
    headers,
    signal: signalOf(meta),
  });
  return { data: response.data };
};

/** simple-rest's record calls, pointed at the resource's collection. */
const withCollection = <P extends { resource: string; meta?: MetaQuery }>(params: P): P => ({
  ...params,
  resource: collectionOf(params.resource, params.meta),
});

export const dataProvider: DataProvider = {
  getList,
  getMany,
  // A record that does not exist is the detail page's to say ("There is no user with ID 999999").
  getOne: <TData extends BaseRecord = BaseRecord>(params: Parameters<DataProvider["getOne"]>[0]) =>
    rest.getOne<TData>(withCollection(params)).catch((error: unknown) => {
      throw isApiError(error) && error.statusCode === 404 ? explainInPlace(error) : error;
    }),
  create: (params) => rest.create(withCollection(params)),
  update: (params) => rest.update(withCollection(params)),
  deleteOne: (params) => rest.deleteOne(withCollection(params)),
  getApiUrl: () => API_BASE,
  custom,
};
