import { InvalidQueryError } from "../errors";
import { describeJson, parseObjectParameter } from "./json";
import { AGGREGATION_LIMITS } from "./types";

export interface Page {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

function fail(reason: string): never {
  throw new InvalidQueryError("pagination", reason);
}

const BOUNDS = {
  page: [1, AGGREGATION_LIMITS.maxPage],
  pageSize: [1, AGGREGATION_LIMITS.maxPageSize],
} as const;

/** Compiles `{"page": 1, "pageSize": 10}`; either key may be omitted (defaults 1 and 10). */
export function compilePagination(text: string | undefined): Page {
  const values: { page: number; pageSize: number } = {
    page: AGGREGATION_LIMITS.defaultPage,
    pageSize: AGGREGATION_LIMITS.defaultPageSize,
  };
  if (text !== undefined) {
    for (const [key, value] of parseObjectParameter("pagination", text)) {
      if (key !== "page" && key !== "pageSize") {
        fail(`unknown key "${key}" (allowed: page, pageSize)`);
      }
      const [min, max] = BOUNDS[key];
      if (typeof value !== "number" || !Number.isInteger(value)) {
        const got = typeof value === "number" ? String(value) : describeJson(value);
        fail(`"${key}" must be an integer, got ${got}`);
      }
      if (value < min || value > max) {
        fail(`"${key}" must be between ${min} and ${max}, got ${value}`);
      }
      values[key] = value;
    }
  }
  const { page, pageSize } = values;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}
