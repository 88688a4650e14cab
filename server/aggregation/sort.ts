import { sql, type SQL } from "drizzle-orm";
import { InvalidQueryError } from "../errors";
import { describeJson, parseObjectParameter } from "./json";
import type { CollectionSpec, FieldSpec } from "./types";
import { isNullable } from "./values";

function fail(reason: string): never {
  throw new InvalidQueryError("sort", reason);
}

/**
 * Compiles the `sort` parameter (`{"createdAt": -1, "name": 1}`: keys in priority order) to ORDER BY
 * terms, falling back to the collection's default sort when absent or empty. The tie-breaker
 * column is appended (in the last key's direction) unless already sorted on, so paging is stable.
 * Nullable fields sort their NULLs last in both directions.
 */
export function compileSort(spec: CollectionSpec, text: string | undefined): SQL[] {
  const keys = text === undefined ? [] : parseSortKeys(spec, text);
  const order: Array<readonly [FieldSpec["column"], boolean, 1 | -1]> = (
    keys.length > 0 ? keys : spec.defaultSort
  ).map(([name, direction]) => {
    const field = spec.fields[name];
    if (!field) throw new Error(`Default sort field "${name}" missing on ${spec.queryName}`);
    return [field.column, isNullable(field), direction] as const;
  });
  if (!order.some(([column]) => column === spec.tieBreaker)) {
    order.push([spec.tieBreaker, !spec.tieBreaker.notNull, order.at(-1)?.[2] ?? 1]);
  }
  return order.map(([column, nullable, direction]) => {
    const nulls = nullable ? sql` nulls last` : sql``;
    return direction === 1 ? sql`${column} asc${nulls}` : sql`${column} desc${nulls}`;
  });
}

function parseSortKeys(spec: CollectionSpec, text: string): Array<[string, 1 | -1]> {
  const sort = parseObjectParameter("sort", text);
  return [...sort].map(([name, direction]) => {
    const field = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
    if (!field || field.sortable !== true) {
      const allowed = Object.keys(spec.fields).filter((key) => spec.fields[key]?.sortable === true);
      fail(
        `field "${name}" is not sortable on ${spec.queryName} ` +
          `(sortable: ${allowed.join(", ") || "none"})`,
      );
    }
    if (direction !== 1 && direction !== -1) {
      const got = typeof direction === "number" ? String(direction) : describeJson(direction);
      fail(`field "${name}" needs direction 1 (ascending) or -1 (descending), got ${got}`);
    }
    return [name, direction];
  });
}
