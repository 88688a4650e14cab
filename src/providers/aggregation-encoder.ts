import type { CrudFilter, CrudSort, LogicalFilter, Pagination } from "@refinedev/core";
import { LIST_PAGING } from "../shared/kit/paging";
import { isBlank } from "../shared/text";

/**
 * The console's one encoder for the list contract (docs/api.md, "Aggregation lists"): Refine's
 * filters, sorters and pagination become the `filter`, `sort` and `pagination` JSON parameters.
 * The server has the matching compiler; a condition it cannot express is refused here, loudly,
 * because a silently dropped filter would show staff the wrong rows.
 */

/** `{ field: value | { $op: value } , $or?: [...], $search?: "text" }` */
export type ContractFilter = Record<string, unknown>;
export type ContractSort = Record<string, 1 | -1>;
export interface ContractPagination {
  page: number;
  pageSize: number;
}

export const DEFAULT_PAGE = LIST_PAGING.defaultPage;
export const DEFAULT_PAGE_SIZE = LIST_PAGING.defaultPageSize;
/** The contract's largest page; client-side and unpaginated lists get one page this size. */
export const MAX_PAGE_SIZE = LIST_PAGING.maxPageSize;

export class UnsupportedFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsupportedFilterError";
  }
}

type Operator = LogicalFilter["operator"];

/** Refine operator → contract operator; `null` means plain equality `{ field: value }`. */
const OPERATORS: Partial<Record<Operator, string | null>> = {
  eq: null,
  eqs: null,
  ne: "$ne",
  nes: "$ne",
  in: "$in",
  nin: "$nin",
  gt: "$gt",
  gte: "$gte",
  lt: "$lt",
  lte: "$lte",
  contains: "$contains",
  containss: "$contains",
  startswith: "$startsWith",
  startswiths: "$startsWith",
};

/** Refine's conventional free-text field, and the contract's own name for it. */
const SEARCH_FIELDS = new Set(["q", "$search"]);

/**
 * antd and Refine report a cleared filter as undefined, null, "" or []: no condition. Text of
 * only blanks is cleared too (the API refuses a blank text condition).
 */
function isCleared(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === "string" && isBlank(value)) ||
    (Array.isArray(value) && value.length === 0)
  );
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith("$"));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function conflict(field: string): never {
  throw new UnsupportedFilterError(
    `Filters on "${field}" cannot be combined: the aggregation contract has no $and`,
  );
}

function encodeLogical(filter: LogicalFilter): ContractFilter | undefined {
  const { field, operator, value } = filter;
  if (SEARCH_FIELDS.has(field)) return isCleared(value) ? undefined : { $search: String(value) };
  if (operator === "null") return { [field]: { $null: true } };
  if (operator === "nnull") return { [field]: { $null: false } };
  if (operator === "between") {
    const [from, to] = Array.isArray(value) ? (value as unknown[]) : [];
    const range: Record<string, unknown> = {};
    if (!isCleared(from)) range.$gte = from;
    if (!isCleared(to)) range.$lte = to;
    return Object.keys(range).length > 0 ? { [field]: range } : undefined;
  }
  const mapped = OPERATORS[operator];
  if (mapped === undefined) {
    throw new UnsupportedFilterError(
      `Filter operator "${operator}" on "${field}" is not supported by the aggregation contract`,
    );
  }
  if (isCleared(value)) return undefined;
  if (mapped === null) return { [field]: value };
  const operand =
    (mapped === "$in" || mapped === "$nin") && !Array.isArray(value) ? [value] : value;
  return { [field]: { [mapped]: operand } };
}

/** Every pair of alternatives, merged: (A or B) and (C or D) = AC or AD or BC or BD. */
function distribute(left: ContractFilter[], right: ContractFilter[]): ContractFilter[] {
  return left.flatMap((a) => right.map((b) => mergeInto({ ...a }, b)));
}

/** Adds `source`'s conditions to `target` (logical AND), in place. */
function mergeInto(target: ContractFilter, source: ContractFilter): ContractFilter {
  for (const [key, condition] of Object.entries(source)) {
    const existing = target[key];
    if (existing === undefined || same(existing, condition)) {
      target[key] = condition;
    } else if (key === "$or") {
      target.$or = distribute(existing as ContractFilter[], condition as ContractFilter[]);
    } else if (isOperatorObject(existing) && isOperatorObject(condition)) {
      for (const [op, operand] of Object.entries(condition)) {
        if (op in existing && !same(existing[op], operand)) conflict(key);
      }
      target[key] = { ...existing, ...condition };
    } else {
      conflict(key);
    }
  }
  return target;
}

function encodeOne(filter: CrudFilter): ContractFilter | undefined {
  if ("field" in filter) return encodeLogical(filter);
  if (filter.operator === "and") return encodeAll(filter.value);
  const alternatives = filter.value.map(encodeOne);
  // One alternative that matches everything makes the whole group match everything.
  if (alternatives.some((a) => a === undefined)) return undefined;
  const defined = alternatives as ContractFilter[];
  return defined.length === 1 ? defined[0] : { $or: defined };
}

function encodeAll(filters: readonly CrudFilter[]): ContractFilter | undefined {
  const merged: ContractFilter = {};
  for (const filter of filters) {
    const encoded = encodeOne(filter);
    if (encoded) mergeInto(merged, encoded);
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** Refine filters (an implicit AND) → the contract's `filter`, or undefined when nothing is set. */
export function encodeFilters(filters?: readonly CrudFilter[]): ContractFilter | undefined {
  return filters ? encodeAll(filters) : undefined;
}

/** Sorters in priority order → `{ field: 1 | -1 }`; a repeated field keeps its first order. */
export function encodeSorters(sorters?: readonly CrudSort[]): ContractSort | undefined {
  const sort: ContractSort = {};
  for (const { field, order } of sorters ?? []) {
    if (!(field in sort)) sort[field] = order === "desc" ? -1 : 1;
  }
  return Object.keys(sort).length > 0 ? sort : undefined;
}

/**
 * Server mode asks for the requested page. Client and "off" modes want every row, but the
 * contract serves at most 100 per request, so they get the first 100.
 */
export function encodePagination(pagination?: Pagination): ContractPagination {
  const {
    currentPage = DEFAULT_PAGE,
    pageSize = DEFAULT_PAGE_SIZE,
    mode = "server",
  } = pagination ?? {};
  if (mode !== "server") return { page: DEFAULT_PAGE, pageSize: MAX_PAGE_SIZE };
  return { page: currentPage, pageSize };
}

export interface AggregationInput {
  filters?: readonly CrudFilter[];
  sorters?: readonly CrudSort[];
  /** `false`: send no pagination parameter (custom calls that page on their own terms). */
  pagination?: Pagination | false;
}

/** The query parameters of an aggregation request; empty ones are left out, as the contract allows. */
export function encodeAggregationQuery(input: AggregationInput): Record<string, string> {
  const query: Record<string, string> = {};
  const filter = encodeFilters(input.filters);
  const sort = encodeSorters(input.sorters);
  if (filter) query.filter = JSON.stringify(filter);
  if (sort) query.sort = JSON.stringify(sort);
  if (input.pagination !== false) {
    query.pagination = JSON.stringify(encodePagination(input.pagination));
  }
  return query;
}
