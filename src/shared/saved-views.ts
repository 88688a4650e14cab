/**
 * Saved views (issue 35, docs/saved-views.md): a list's filters, sort, columns, column widths and
 * page size kept under a name, for oneself or shared. The state's general shape and limits are
 * here, for the server's routes and the console; `viewStateSchemaOf` builds, from a module's
 * declaration, the schema a state must meet to be saved: filters only on filterable fields with
 * values of the right kind, sort only on sortable fields, columns only listed fields.
 */
import { z } from "zod";

import { enumValuesOf, type FieldDecl, type ModuleDecl } from "./kit/module";
import { isoDate } from "./kit/types";
import { LIST_SEARCH_MAX_LENGTH } from "./kit/paging";
import { idSchema } from "./schemas/common";
import { safeText } from "./text";

export const SAVED_VIEW_LIMITS = {
  /** Characters of a view's name, after trimming. */
  nameMax: 80,
  /** Filters in one view (a list's every filter and both ends of each range fit many times). */
  filters: 50,
  sorters: 5,
  /** Columns named in one view (shown columns, widths). */
  columns: 100,
  widthMin: 40,
  widthMax: 1200,
  /** Views one administrator keeps for one list. */
  viewsPerList: 100,
} as const;

/** The page sizes a list offers (antd's size changer), the only ones a view may keep. */
export const SAVED_VIEW_PAGE_SIZES = [10, 20, 50, 100] as const;

/** The field of a list's search box (Refine's free-text filter, sent as `$search`). */
export const VIEW_SEARCH_FIELD = "q";

const FILTER_OPERATORS = ["eq", "in", "contains", "between", "gte", "lte"] as const;
const fieldName = z.string().min(1).max(100);
const filterText = safeText({ requireVisible: false }).max(LIST_SEARCH_MAX_LENGTH);
const filterValue = z.union([
  filterText,
  z.number(),
  z.boolean(),
  z.array(z.union([filterText, z.number()])).max(SAVED_VIEW_LIMITS.columns),
]);

/**
 * Any view state, before the module's own rules: what the routes' bodies take. The counts are
 * checked after it (SAVED_VIEW_TOO_LARGE, with the limit), the module's rules after them
 * (SAVED_VIEW_INVALID, with the parts).
 */
export const viewStateShape = z
  .strictObject({
    filters: z.array(
      z.strictObject({
        field: fieldName,
        operator: z.enum(FILTER_OPERATORS),
        value: filterValue,
      }),
    ),
    sorters: z.array(z.strictObject({ field: fieldName, order: z.enum(["asc", "desc"]) })),
    pageSize: z.number().int(),
    /** The columns shown, in order; absent: the list's own. */
    columns: z.array(fieldName).optional(),
    /** Column widths in px, by field. */
    widths: z.record(fieldName, z.number().int()).optional(),
  })
  .meta({ id: "savedViewState" });
export type ViewState = z.infer<typeof viewStateShape>;
export type ViewFilter = ViewState["filters"][number];

/** A part of a stored view left out because the list no longer has it (its field or value). */
export const droppedPart = z.strictObject({
  part: z.enum(["filter", "sort", "column", "width", "pageSize"]),
  field: z.string().optional(),
});
export type DroppedPart = z.infer<typeof droppedPart>;

/** The counts a state may not pass, as the name of the limit it passes (or undefined). */
export function stateOverLimit(state: ViewState): { part: string; limit: number } | undefined {
  if (state.filters.length > SAVED_VIEW_LIMITS.filters) {
    return { part: "filters", limit: SAVED_VIEW_LIMITS.filters };
  }
  if (state.sorters.length > SAVED_VIEW_LIMITS.sorters) {
    return { part: "sorters", limit: SAVED_VIEW_LIMITS.sorters };
  }
  if ((state.columns?.length ?? 0) > SAVED_VIEW_LIMITS.columns) {
    return { part: "columns", limit: SAVED_VIEW_LIMITS.columns };
  }
  if (Object.keys(state.widths ?? {}).length > SAVED_VIEW_LIMITS.columns) {
    return { part: "widths", limit: SAVED_VIEW_LIMITS.columns };
  }
  return undefined;
}

type ListModule = Pick<ModuleDecl, "fields" | "fixedFilters">;

const filterOf = (field: string, operator: string, value: z.ZodType) =>
  z.strictObject({ field: z.literal(field), operator: z.literal(operator), value });

/** The filters a field may carry in a view, by its declared filter kind. */
function fieldFilters(field: string, decl: FieldDecl): z.ZodType[] {
  switch (decl.filter) {
    case "text":
      return [filterOf(field, "contains", filterText)];
    case "choice": {
      const values = enumValuesOf(decl.schema) ?? [];
      const one = z.enum(values as [string, ...string[]]);
      return [
        filterOf(field, "eq", one),
        filterOf(field, "in", z.array(one).min(1).max(values.length)),
      ];
    }
    case "boolean":
      return [filterOf(field, "eq", z.boolean())];
    case "dateRange":
      return [filterOf(field, "between", z.tuple([isoDate, isoDate]))];
    case "numberRange": {
      const bound = z.number().min(-1e15).max(1e15);
      return [filterOf(field, "gte", bound), filterOf(field, "lte", bound)];
    }
    case "record":
      return [filterOf(field, "eq", idSchema)];
    default:
      return [];
  }
}

/** The lists' fields a view may name: filterable, sortable, listed. */
export function viewFieldsOf(module: ListModule) {
  const entries = Object.entries(module.fields);
  return {
    // A list's fixed filters are its own (a view of another list), never a view's.
    filterable: entries.filter(
      ([field, decl]) => decl.filter && module.fixedFilters?.[field] === undefined,
    ),
    sortable: entries.filter(([, decl]) => decl.sort === true).map(([field]) => field),
    listed: entries.filter(([, decl]) => decl.list).map(([field]) => field),
    searchable: entries.some(([, decl]) => decl.search),
  };
}

/** The schemas of one filter, one sorter, one column, one width and the page size of a module. */
export function viewPartsOf(module: ListModule) {
  const { filterable, sortable, listed, searchable } = viewFieldsOf(module);
  const filters = filterable.flatMap(([field, decl]) => fieldFilters(field, decl));
  if (searchable) filters.push(filterOf(VIEW_SEARCH_FIELD, "contains", filterText));
  const never = z.never();
  const listedField = listed.length > 0 ? z.enum(listed as [string, ...string[]]) : never;
  return {
    filter: filters.length > 0 ? z.union(filters as [z.ZodType, ...z.ZodType[]]) : never,
    sorter: z.strictObject({
      field: sortable.length > 0 ? z.enum(sortable as [string, ...string[]]) : never,
      order: z.enum(["asc", "desc"]),
    }),
    column: listedField,
    width: z.number().int().min(SAVED_VIEW_LIMITS.widthMin).max(SAVED_VIEW_LIMITS.widthMax),
    pageSize: z.union(SAVED_VIEW_PAGE_SIZES.map((size) => z.literal(size))),
  };
}

/** The schema a view's state must meet to be saved for `module`. */
export function viewStateSchemaOf(module: ListModule) {
  const parts = viewPartsOf(module);
  return z.strictObject({
    filters: z.array(parts.filter).max(SAVED_VIEW_LIMITS.filters),
    sorters: z.array(parts.sorter).max(SAVED_VIEW_LIMITS.sorters),
    pageSize: parts.pageSize,
    columns: z.array(parts.column).max(SAVED_VIEW_LIMITS.columns).optional(),
    widths: z.partialRecord(parts.column, parts.width).optional(),
  });
}

/**
 * A stored state as `module` can still open it: every part naming a field or value the list no
 * longer has left out, and named in `dropped`.
 */
export function openableState(
  module: ListModule,
  stored: unknown,
): { state: ViewState; dropped: DroppedPart[] } {
  const parts = viewPartsOf(module);
  const dropped: DroppedPart[] = [];
  const raw = (typeof stored === "object" && stored !== null ? stored : {}) as Record<
    string,
    unknown
  >;
  const fieldOf = (item: unknown) => {
    const field = (item as { field?: unknown } | null)?.field;
    return typeof field === "string" ? { field } : {};
  };
  const list = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
  const filters = list(raw.filters).filter((item) => {
    const ok = parts.filter.safeParse(item).success;
    if (!ok) dropped.push({ part: "filter", ...fieldOf(item) });
    return ok;
  }) as ViewFilter[];
  const sorters = list(raw.sorters).filter((item) => {
    const ok = parts.sorter.safeParse(item).success;
    if (!ok) dropped.push({ part: "sort", ...fieldOf(item) });
    return ok;
  }) as ViewState["sorters"];
  const state: ViewState = {
    filters: filters.slice(0, SAVED_VIEW_LIMITS.filters),
    sorters: sorters.slice(0, SAVED_VIEW_LIMITS.sorters),
    pageSize: SAVED_VIEW_PAGE_SIZES[0],
  };
  if (parts.pageSize.safeParse(raw.pageSize).success) {
    state.pageSize = raw.pageSize as number;
  } else if (raw.pageSize !== undefined) {
    dropped.push({ part: "pageSize" });
  }
  if (Array.isArray(raw.columns)) {
    state.columns = raw.columns.filter((field) => {
      const ok = parts.column.safeParse(field).success;
      if (!ok) dropped.push({ part: "column", ...(typeof field === "string" ? { field } : {}) });
      return ok;
    }) as string[];
  }
  if (typeof raw.widths === "object" && raw.widths !== null) {
    const widths: Record<string, number> = {};
    for (const [field, width] of Object.entries(raw.widths as Record<string, unknown>)) {
      if (parts.column.safeParse(field).success && parts.width.safeParse(width).success) {
        widths[field] = width as number;
      } else {
        dropped.push({ part: "width", field });
      }
    }
    state.widths = widths;
  }
  return { state, dropped };
}

/** A saved view as the API answers it. */
export const savedViewSchema = z
  .strictObject({
    id: idSchema,
    name: z.string(),
    shared: z.boolean(),
    /** Whether the caller owns it (may change it); others' views are shared ones. */
    mine: z.boolean(),
    owner: z.strictObject({ id: idSchema, name: z.string() }),
    state: viewStateShape,
    /** The parts of the stored state this list no longer has, left out of `state`. */
    dropped: z.array(droppedPart),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "savedView" });
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewListSchema = z
  .strictObject({
    views: z.array(savedViewSchema),
    /** The view this administrator's list opens with, when one is set and still visible. */
    defaultViewId: idSchema.nullable(),
  })
  .meta({ id: "savedViewList" });
export type SavedViewList = z.infer<typeof savedViewListSchema>;

/** A view's name: trimmed, 1–80 characters, no control or invisible-only text. */
export const viewNameSchema = safeText().trim().min(1).max(SAVED_VIEW_LIMITS.nameMax);

export const createViewBody = z.strictObject({
  name: viewNameSchema,
  shared: z.boolean().default(false),
  state: viewStateShape,
});

/** What a PATCH changes; a part left out stays as it is. */
export const updateViewBody = z.strictObject({
  name: viewNameSchema.optional(),
  shared: z.boolean().optional(),
  state: viewStateShape.optional(),
});

export const defaultViewBody = z.strictObject({ viewId: idSchema.nullable() });
