import type { CrudFilter } from "@refinedev/core";

/**
 * A query string has no types. With `syncWithLocation`, Refine reads a boolean filter back from
 * the URL as the text "true" or "false" (after a reload, or from a shared link), and the
 * aggregation contract rightly refuses text for a boolean field. Returns the filters with those
 * values made booleans again, or `undefined` when nothing needed restoring.
 */
export function restoreBooleanFilters(
  filters: readonly CrudFilter[],
  booleanFields: ReadonlySet<string>,
): CrudFilter[] | undefined {
  let changed = false;
  const restored = filters.map((filter) => {
    if (!("field" in filter) || !booleanFields.has(filter.field)) return filter;
    if (filter.value !== "true" && filter.value !== "false") return filter;
    changed = true;
    return { ...filter, value: filter.value === "true" };
  });
  return changed ? restored : undefined;
}
