import { businessDayStart } from "../business-day";
import { and, or, sql, type SQL } from "drizzle-orm";
import { hasControlCharacters } from "../../src/shared/text";
import { searchKey } from "../db/search-key";
import { InvalidQueryError } from "../errors";
import {
  describeJson,
  isBlank,
  isJsonObject,
  parseObjectParameter,
  type Json,
  type JsonObject,
} from "./json";
import { AGGREGATION_LIMITS, isNumberKind, type CollectionSpec, type FieldSpec } from "./types";
import {
  coerceDate,
  coerceScalar,
  coerceString,
  columnOf,
  dateCastOf,
  isNullable,
  ValueError,
  type DateOperand,
  type Scalar,
} from "./values";

function fail(reason: string): never {
  throw new InvalidQueryError("filter", reason);
}

const FIELD_OPERATORS = [
  "$eq",
  "$ne",
  "$in",
  "$nin",
  "$gt",
  "$gte",
  "$lt",
  "$lte",
  "$contains",
  "$startsWith",
  "$null",
] as const;
type FieldOperator = (typeof FIELD_OPERATORS)[number];
const isFieldOperator = (op: string): op is FieldOperator =>
  (FIELD_OPERATORS as readonly string[]).includes(op);
const RANGE_SQL = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" } as const;

interface Context {
  spec: CollectionSpec;
  conditions: number;
  /** Whether a non-blank `$search` takes part. */
  searched: boolean;
}

/** Escapes LIKE/ILIKE wildcards; PostgreSQL's default LIKE escape character is the backslash. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, "\\$&");

const located = (at: string) => (at ? ` (at ${at})` : "");
const not = (condition: SQL): SQL => sql`not (${condition})`;

/** Compiles the `filter` parameter to a WHERE condition, or `undefined` when it matches all. */
/** The filter's condition, and whether it searches text (see CompiledAggregation.searched). */
export function compileFilter(
  spec: CollectionSpec,
  text: string,
): { where: SQL | undefined; searched: boolean } {
  const ctx: Context = { spec, conditions: 0, searched: false };
  const where = compileObject(ctx, parseObjectParameter("filter", text), 0, "");
  return { where, searched: ctx.searched };
}

function compileObject(ctx: Context, filter: JsonObject, orDepth: number, at: string) {
  const parts: SQL[] = [];
  for (const [key, value] of filter) {
    let part: SQL | undefined;
    if (key === "$or") part = compileOr(ctx, value, orDepth + 1, at);
    else if (key === "$search") part = compileSearch(ctx, value, at);
    else if (key.startsWith("$")) {
      fail(
        `unknown operator "${key}"${located(at)}; a filter's keys are fields, "$or" or "$search"`,
      );
    } else part = compileField(ctx, key, value, at);
    if (part) parts.push(part);
  }
  return parts.length <= 1 ? parts[0] : and(...parts);
}

function countCondition(ctx: Context) {
  if (++ctx.conditions > AGGREGATION_LIMITS.maxConditions) {
    fail(`too many conditions (at most ${AGGREGATION_LIMITS.maxConditions})`);
  }
}

function compileOr(ctx: Context, value: Json, depth: number, at: string): SQL | undefined {
  const here = at ? `${at}.$or` : "$or";
  if (!Array.isArray(value) || value.length === 0) {
    return fail(`"${here}" needs a non-empty array of filter objects, got ${describeJson(value)}`);
  }
  if (depth > AGGREGATION_LIMITS.maxOrDepth) {
    fail(`"$or" is nested too deeply (at most ${AGGREGATION_LIMITS.maxOrDepth} levels)`);
  }
  const branches: SQL[] = [];
  let matchesAll = false;
  value.forEach((branch, i) => {
    countCondition(ctx);
    if (!isJsonObject(branch) || branch.size === 0) {
      fail(`"${here}[${i}]" must be a non-empty filter object, got ${describeJson(branch)}`);
    }
    const compiled = compileObject(ctx, branch as JsonObject, depth, `${here}[${i}]`);
    // A branch without conditions (only a blank $search) matches every row, so the $or does too.
    if (compiled) branches.push(compiled);
    else matchesAll = true;
  });
  return matchesAll ? undefined : or(...branches);
}

function compileSearch(ctx: Context, value: Json, at: string): SQL | undefined {
  countCondition(ctx);
  if (!Object.values(ctx.spec.fields).some((field) => field.searchable === true)) {
    fail(`"$search" is not supported on ${ctx.spec.queryName} (it has no searchable fields)`);
  }
  if (typeof value !== "string") {
    return fail(`"$search"${located(at)} needs a string, got ${describeJson(value)}`);
  }
  if (value.length > AGGREGATION_LIMITS.maxSearchLength) {
    fail(`"$search" is longer than ${AGGREGATION_LIMITS.maxSearchLength} characters`);
  }
  const term = value.trim();
  if (hasControlCharacters(term)) fail(`"$search" must not contain control characters`);
  // Unlike a blank text value, a blank search is no search: a search box left blank.
  if (isBlank(term)) return undefined;
  ctx.searched = true;
  return searchCondition(ctx.spec, term);
}

/**
 * Rows whose searchable fields contain `term` (trimmed, not blank, without control characters),
 * case-insensitively: one LIKE on the collection's `searchKey` when it has one (a code's tail
 * first, see CollectionSpec.searchTail), else an ILIKE per searchable field. Every text search
 * over a collection goes through here.
 */
export function searchCondition(spec: CollectionSpec, term: string): SQL {
  const pattern = `%${escapeLike(term)}%`;
  const key = spec.searchKey;
  if (key) {
    const exact = spec.searchExact?.(term);
    if (exact) return exact;
    const contains = (text: string) =>
      sql`${key} like ${searchKey(sql`lower(${`%${escapeLike(text)}%`})`)}`;
    const characters = Array.from(term);
    const tail = spec.searchTail;
    // The tail's condition first: the index scan tests its conditions in this order.
    return tail && characters.length > tail
      ? sql`(${contains(characters.slice(-tail).join(""))} and ${contains(term)})`
      : contains(term);
  }
  const fields = Object.values(spec.fields).filter((field) => field.searchable === true);
  return or(...fields.map((field) => sql`${textOf(field)} ilike ${pattern}`))!;
}

/** The field as text: string columns as they are (so their indexes apply), others cast. */
function textOf(field: FieldSpec): SQL | FieldSpec["column"] {
  const column = columnOf(field);
  if (!column) return field.type === "text" ? field.column : sql`(${field.column})::text`;
  return /^(text|varchar|char|character|citext)\b/.test(column.getSQLType())
    ? column
    : sql`${column}::text`;
}

function compileField(ctx: Context, name: string, value: Json, at: string): SQL {
  const { spec } = ctx;
  const field = Object.hasOwn(spec.fields, name) ? spec.fields[name] : undefined;
  if (!field || field.filterable !== true) {
    const allowed = Object.keys(spec.fields).filter((key) => spec.fields[key]?.filterable === true);
    return fail(
      `field "${name}" is not filterable on ${spec.queryName}${located(at)} ` +
        `(filterable: ${allowed.join(", ") || "none"})`,
    );
  }
  if (Array.isArray(value)) {
    return fail(`field "${name}"${located(at)} got an array; use {"$in": [...]} to match several`);
  }
  if (!isJsonObject(value)) return compileOperator(ctx, name, field, "$eq", value, at);
  if (value.size === 0) return fail(`field "${name}"${located(at)} has an empty operator object`);
  const parts = [...value].map(([op, operand]) => {
    if (!isFieldOperator(op)) {
      return fail(
        `unknown operator "${op}" on field "${name}"${located(at)} ` +
          `(supported: ${FIELD_OPERATORS.join(", ")})`,
      );
    }
    return compileOperator(ctx, name, field, op, operand, at);
  });
  return parts.length === 1 ? parts[0]! : and(...parts)!;
}

function compileOperator(
  ctx: Context,
  name: string,
  field: FieldSpec,
  op: FieldOperator,
  operand: Json,
  at: string,
): SQL {
  countCondition(ctx);
  const subject = `${op === "$eq" ? "" : `${op} on `}field "${name}"${located(at)}`;
  const col = textOrColumn(field);
  const nullable = isNullable(field);
  const orNull = (condition: SQL) => (nullable ? or(condition, sql`${col} is null`)! : condition);
  try {
    switch (op) {
      case "$eq":
      case "$ne": {
        if (operand === null) return op === "$eq" ? sql`${col} is null` : sql`${col} is not null`;
        const value = coerce(name, field, operand);
        return op === "$eq" ? equals(field, col, value) : orNull(not(equals(field, col, value)));
      }
      case "$in":
      case "$nin": {
        if (!Array.isArray(operand) || operand.length === 0) {
          throw new ValueError(`needs a non-empty array, got ${describeJson(operand)}`);
        }
        if (operand.length > AGGREGATION_LIMITS.maxInValues) {
          throw new ValueError(`accepts at most ${AGGREGATION_LIMITS.maxInValues} values`);
        }
        const values = operand.map((item) => coerce(name, field, item));
        const any =
          field.type === "dateRange"
            ? or(...values.map((value) => equals(field, col, value)))!
            : sql`${col} in ${(values as Scalar[]).map((value) => bind(field, value))}`;
        return op === "$in" ? any : orNull(not(any));
      }
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte": {
        if (field.type === "boolean" || field.type === "choice") {
          const kind = field.type === "choice" ? "choice (enum)" : "boolean";
          throw new ValueError(`is not supported on ${kind} fields: their values have no order`);
        }
        return range(field, col, op, coerce(name, field, operand));
      }
      case "$contains":
      case "$startsWith": {
        if (field.type !== "text") {
          throw new ValueError(`is only supported on string fields (kind text), not ${field.type}`);
        }
        const text = escapeLike(coerceString(operand));
        return sql`${col} ilike ${op === "$contains" ? `%${text}%` : `${text}%`}`;
      }
      case "$null":
        if (typeof operand !== "boolean") {
          throw new ValueError(`needs true or false, got ${describeJson(operand)}`);
        }
        return operand ? sql`${col} is null` : sql`${col} is not null`;
    }
  } catch (error) {
    if (error instanceof ValueError) fail(`${subject} ${error.message}`);
    throw error;
  }
}

type Operand = Scalar | DateOperand;
type Column = FieldSpec["column"] | SQL;

const coerce = (name: string, field: FieldSpec, value: Json): Operand =>
  field.type === "dateRange" ? coerceDate(field, value) : coerceScalar(name, field, value);

/** Text fields on non-text columns (uuid, …) compare as text so any string is a valid value. */
const textOrColumn = (field: FieldSpec): Column =>
  field.type === "text" && columnOf(field) ? textOf(field) : field.column;

/**
 * A bound parameter. Numbers compared with SQL expressions are cast to numeric, and with `real`
 * columns to double precision, so that no finite JSON number can overflow the parameter's type.
 */
function bind(field: FieldSpec, value: Scalar): SQL {
  if (!isNumberKind(field.type)) return sql`${value}`;
  const sqlType = columnOf(field)?.getSQLType();
  if (sqlType === undefined) return sql`${value}::numeric`;
  return sqlType === "real" ? sql`${value}::float8` : sql`${value}`;
}

/**
 * A date bound. A day `YYYY-MM-DD` on an instant (timestamptz) column is a business day: it starts
 * at midnight in BUSINESS_TIMEZONE (server/business-day.ts), not in the session's zone nor UTC.
 */
function bindDate(field: FieldSpec, value: string): SQL {
  const cast = dateCastOf(field);
  const day = /^\d+-\d\d-\d\d$/.test(value);
  if (day && cast === "timestamptz") return businessDayStart(value);
  const text = day && cast === "timestamp" ? `${value}T00:00:00` : value;
  return sql`${text}::${sql.raw(cast)}`;
}

function equals(field: FieldSpec, col: Column, value: Operand): SQL {
  if (typeof value !== "object") return sql`${col} = ${bind(field, value)}`;
  if (value.kind === "instant") return sql`${col} = ${bindDate(field, value.at)}`;
  return sql`(${col} >= ${bindDate(field, value.start)} and ${col} < ${bindDate(field, value.end)})`;
}

/**
 * Range operators. A calendar day is a whole day: `$gt`/`$lte` compare with the day's end (the
 * next day's start, exclusive), `$gte`/`$lt` with its start.
 */
function range(field: FieldSpec, col: Column, op: keyof typeof RANGE_SQL, value: Operand): SQL {
  if (typeof value !== "object") return sql`${col} ${sql.raw(RANGE_SQL[op])} ${bind(field, value)}`;
  if (value.kind === "instant") {
    return sql`${col} ${sql.raw(RANGE_SQL[op])} ${bindDate(field, value.at)}`;
  }
  const useEnd = op === "$gt" || op === "$lte";
  const bound = bindDate(field, useEnd ? value.end : value.start);
  return op === "$gt" || op === "$gte" ? sql`${col} >= ${bound}` : sql`${col} < ${bound}`;
}
