/**
 * Field presets: the blocks of fields module declarations share (the record's id, a text, the text
 * that names it, an instant, a choice shown as a tag, an administrator or a user linked to their
 * page, the timestamps, a staff decision), each written once, and the decision of an approval
 * queue. A preset returns one field or a map of fields to spread into `fields: {...}`; what it
 * returns is exactly what `field()` would, so the record (`module.item`) keeps its keys in the
 * order the declaration names them.
 *
 * Each preset has defaults (what most modules declare) and takes the same options for what varies:
 * `list` a column's width, and `show`, `filter`, `sort`, `search`, `export` to turn a use on or
 * off. An option turned off is left out of the field, as if never written.
 */
import { z } from "zod";

import {
  decision,
  field,
  type Display,
  type FieldDecl,
  type FieldOptions,
  type FilterKind,
  type TagColour,
} from "./module";
import { isoDateTime } from "./types";

/** What varies between the uses of a preset; each preset says its defaults. */
export interface PresetOptions {
  /** A column of the list this wide (px); none: not a column. */
  list?: number;
  /** A line of the generated detail page. */
  show?: boolean;
  /** The list filters by it, with the filter kind its type takes. */
  filter?: boolean;
  sort?: boolean;
  /** Matched by the list's search box. */
  search?: boolean;
  /** A column of the CSV export. */
  export?: boolean;
  /** Whether the list draws a control for its filter (the kit's default when not said). */
  control?: boolean;
  /** The module's word for no value, when not the kit's "none". */
  empty?: string;
}

type Switch = "show" | "filter" | "sort" | "search" | "export";

/** A field's options from a preset's defaults and a use's options (off: left out). */
function optionsOf(
  defaults: Partial<Record<Switch, boolean>>,
  given: PresetOptions,
  filter: FilterKind,
  extra: FieldOptions = {},
): FieldOptions {
  const on = (key: Switch) => given[key] ?? defaults[key] ?? false;
  return {
    ...(given.list === undefined ? {} : { list: { width: given.list } }),
    ...(on("show") ? { show: true } : {}),
    ...(on("filter") ? { filter } : {}),
    ...(on("sort") ? { sort: true } : {}),
    ...(on("search") ? { search: true } : {}),
    ...(on("export") ? { export: true } : {}),
    ...(on("filter") && given.control !== undefined ? { control: given.control } : {}),
    ...extra,
    ...(given.empty === undefined ? {} : { empty: given.empty }),
  };
}

/**
 * A field from a schema and options built at run time. `field()` checks the filter kind against
 * the type in the type checker; a preset picks the kind from its own type, and defineModule checks
 * it again at import.
 */
function presetField<T extends z.ZodType>(schema: T, options: FieldOptions): FieldDecl<T> {
  return { schema, ...options };
}

/**
 * A text. Default: shown and exported; `filter` (text), `sort` and `search` when the list offers
 * them; `nullable` when there may be none; `display` when shown otherwise than as it is (a link).
 */
export function text<const N extends boolean = false>(
  options: PresetOptions & { nullable?: N; display?: Display } = {},
): FieldDecl<N extends true ? z.ZodNullable<z.ZodString> : z.ZodString> {
  const schema = options.nullable ? z.string().nullable() : z.string();
  return presetField(
    schema,
    optionsOf(
      { show: true, export: true },
      options,
      "text",
      options.display ? { display: options.display } : {},
    ),
  ) as FieldDecl<N extends true ? z.ZodNullable<z.ZodString> : z.ZodString>;
}

/** The record's id. Default: filtered (a number range) and sorted; no column. */
export function recordId(options: PresetOptions = {}): FieldDecl<z.ZodNumber> {
  return presetField(
    z.number().int(),
    optionsOf({ filter: true, sort: true }, options, "numberRange"),
  );
}

/**
 * The text naming a record, linked to its own detail page (its reference, title or name).
 * Default: shown, filtered (text), searched and exported, not sorted.
 */
export function selfLink(options: PresetOptions = {}): FieldDecl<z.ZodString> {
  return presetField(
    z.string(),
    optionsOf({ show: true, filter: true, search: true, export: true }, options, "text", {
      display: { kind: "link", to: "self", idField: "id" },
    }),
  );
}

type IsoDateTime = typeof isoDateTime;

/**
 * An instant (ISO date-time), shown as a date and time, or as a date with `display: "date"`.
 * Default: shown, filtered (a date range), sorted and exported; `nullable` when it may not have
 * happened yet.
 */
export function instant<const N extends boolean = false>(
  options: PresetOptions & { nullable?: N; display?: "date" | "dateTime" } = {},
): FieldDecl<N extends true ? z.ZodNullable<IsoDateTime> : IsoDateTime> {
  const schema = options.nullable ? isoDateTime.nullable() : isoDateTime;
  const fieldOptions = optionsOf(
    { show: true, filter: true, sort: true, export: true },
    options,
    "dateRange",
    { display: { kind: options.display ?? "dateTime" } },
  );
  return presetField(schema, fieldOptions) as FieldDecl<
    N extends true ? z.ZodNullable<IsoDateTime> : IsoDateTime
  >;
}

/**
 * An amount of money in sen. Default: shown and exported; `filter` (a number range) and `sort`
 * when the list offers them; `nullable` when there may be none.
 */
export function money<const N extends boolean = false>(
  options: PresetOptions & { nullable?: N } = {},
): FieldDecl<N extends true ? z.ZodNullable<z.ZodNumber> : z.ZodNumber> {
  const schema = options.nullable ? z.number().int().nullable() : z.number().int();
  return presetField(
    schema,
    optionsOf({ show: true, export: true }, options, "numberRange", { display: { kind: "money" } }),
  ) as FieldDecl<N extends true ? z.ZodNullable<z.ZodNumber> : z.ZodNumber>;
}

/** A whole number of things (payments, bays), grouped. Default: shown, sorted and exported. */
export function count(options: PresetOptions = {}): FieldDecl<z.ZodNumber> {
  return presetField(
    z.number().int(),
    optionsOf({ show: true, sort: true, export: true }, options, "numberRange", {
      display: { kind: "count" },
    }),
  );
}

/**
 * When a record was created (an `instant`, with its options) and last changed (in the record
 * only, for the history and the edit forms): `createdAt`, `updatedAt`.
 */
export function timestamps(options: PresetOptions & { display?: "date" | "dateTime" } = {}) {
  return {
    createdAt: instant(options),
    updatedAt: field(isoDateTime),
  };
}

/**
 * One of a set of values (an enum), shown as a tag of its colour when `colours` are given.
 * Default: shown, filtered (a choice), sorted and exported.
 */
export function choice<T extends z.ZodEnum>(
  schema: T,
  options: PresetOptions & { colours?: Readonly<Record<string, TagColour>> } = {},
): FieldDecl<T> {
  const { colours } = options;
  return presetField(
    schema,
    optionsOf(
      { show: true, filter: true, sort: true, export: true },
      options,
      "choice",
      colours ? { display: { kind: "tag", colours } } : {},
    ),
  );
}

/**
 * An administrator a record names (who created, linked, closed or decided it): their id, and their
 * name linked to their page. Default: the name shown; `list`, `export` and `empty` apply to the
 * name; `filter` lets the list filter by the administrator, chosen by name (a `record` filter on
 * the id, with its control; the server binds its options).
 */
export function administratorLink<const I extends string, const N extends string>(
  id: I,
  name: N,
  options: Omit<PresetOptions, "sort" | "search"> = {},
): Record<I, FieldDecl<z.ZodNullable<z.ZodNumber>>> &
  Record<N, FieldDecl<z.ZodNullable<z.ZodString>>> {
  const { filter, ...nameOptions } = options;
  return {
    [id]: presetField(
      z.number().int().nullable(),
      filter ? { filter: "record", control: true } : {},
    ),
    [name]: presetField(
      z.string().nullable(),
      optionsOf({ show: true }, nameOptions, "text", {
        display: { kind: "link", to: "administrators", idField: id },
      }),
    ),
  } as Record<I, FieldDecl<z.ZodNullable<z.ZodNumber>>> &
    Record<N, FieldDecl<z.ZodNullable<z.ZodString>>>;
}

/**
 * The user a record belongs to: `userId` (filtered as a number, for links from the user's page),
 * `accountNumber` linked to the user's page (a column 130 px wide unless told, shown, filtered,
 * searched, exported) and `userName` (shown and exported; `name` sets its column and search).
 */
export function userLink(
  options: { account?: number; name?: { list?: number; search?: boolean } } = {},
) {
  return {
    userId: presetField(z.number().int(), { filter: "numberRange" }),
    accountNumber: presetField(
      z.string(),
      optionsOf(
        { show: true, filter: true, search: true, export: true },
        { list: options.account ?? 130 },
        "text",
        { display: { kind: "link", to: "users", idField: "userId" } },
      ),
    ),
    userName: presetField(
      z.string(),
      optionsOf({ show: true, export: true }, options.name ?? {}, "text"),
    ),
  };
}

/**
 * The fields of a staff decision on a record (an approval, a suspension): the remark, who decided
 * (linked to their page) and when. One definition for every module that records decisions.
 */
export function reviewFields() {
  return {
    remark: field(z.string().nullable(), { show: true, export: true }),
    ...administratorLink("reviewerId", "reviewerName"),
    reviewedAt: field(isoDateTime.nullable(), { show: true, filter: "dateRange", sort: true }),
  };
}

/**
 * The decision on a queue of pending records (an approval queue): approve or reject at
 * `approval-action`, one record or several, while its `field` is pending.
 */
export function approvalDecision(audit: string, statusField = "status") {
  return decision({
    path: "approval-action",
    when: { [statusField]: ["pending"] },
    bulk: true,
    audit,
  });
}
