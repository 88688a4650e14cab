import { LIST_PAGING, LIST_SEARCH_MAX_LENGTH } from "../../src/shared/kit/list";
import type { FilterKind } from "../../src/shared/kit/module";
import type { SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * One field a collection exposes to the aggregation query language. Everything is opt-in: a field
 * is filterable, sortable or searchable only when the flag is `true` (an allow-list).
 */
export interface FieldSpec {
  /** A table column, or any SQL expression (e.g. a joined or computed value). */
  column: AnyPgColumn | SQL;
  /**
   * What its values are, in the declaration's words (FilterKind, src/shared/kit/module.ts): `text`,
   * `choice` (one of `values`), `boolean`, `dateRange` (a day or an instant), `numberRange` and
   * `record` (a number: a record's id). The list contract's operators apply by kind (docs/api.md).
   */
  type: FilterKind;
  /** The values of a `choice` field (required for one; see enumValuesOf in the kit). */
  values?: readonly string[];
  filterable?: boolean;
  sortable?: boolean;
  /** Matched case-insensitively by `{"$search": "text"}`. */
  searchable?: boolean;
}

/** Whether a field's values are numbers: a range of numbers, or a record chosen by its id. */
export const isNumberKind = (type: FilterKind): boolean =>
  type === "numberRange" || type === "record";

export interface CollectionSpec {
  /** The list key of the response (`administrators`, `users`, …); named in error messages. */
  queryName: string;
  /** Keyed by the field name clients use (camelCase, as in the DTO). */
  fields: Record<string, FieldSpec>;
  /** Used when the client sends no sort (or an empty one). */
  defaultSort: ReadonlyArray<readonly [string, 1 | -1]>;
  /**
   * A unique, non-null column appended to every ORDER BY so that paging is stable; pages are read
   * by it (the page's keys first, then their rows), so it should be the primary key.
   */
  tieBreaker: AnyPgColumn;
  /**
   * Optional: the search key (server/db/search-key.ts) of every searchable field lower-cased and
   * joined with U+001F (a control character, which `$search` refuses), indexed with pg_trgm: a
   * stored column holding it (users' search_key) or the expression of its index over a stored
   * column (the ledger's `searchKey(search_text)`). `$search` then tests one LIKE against that key
   * instead of an ILIKE per field: the same matches (a search text cannot contain the
   * separator), one trigram index, several times cheaper per row.
   */
  searchKey?: AnyPgColumn | SQL;
  /**
   * Optional, with `searchKey`, for fields that are codes (the ledger's references and account
   * numbers): their heads are shared by millions of rows (`TU` and the day, `W0000…`), their tails
   * tell them apart. A term longer than this many characters is then looked up by its last
   * `searchTail` characters first, and only those rows are tested for the whole term: the same
   * matches (the tail is part of the term), but the trigram index walks the postings of a few
   * rare trigrams instead of checking every candidate against the postings of the common ones
   * (a full reference at 10 million rows: 7,600 index pages and 80 ms → 250 pages and 6 ms).
   */
  searchTail?: number;
  /**
   * Optional, with `searchKey`: the condition that finds a term that is a whole code (an
   * account number) through that code's own index, or undefined for any other term: the rows
   * holding that code, found by a b-tree instead of the postings of its common trigrams ("000"
   * is in every account). Where other searchable fields could merely contain such a code (a
   * user's e-mail), the code's owner is what the term asks for.
   */
  searchExact?: (term: string) => SQL | undefined;
}

export interface RawAggregationQuery {
  filter?: string;
  sort?: string;
  pagination?: string;
}

/** Abuse limits. Exported so that tests and docs can quote them. */
export const AGGREGATION_LIMITS = {
  /** Characters per query parameter (filter, sort or pagination) before parsing. */
  maxParameterLength: 8192,
  /** Nesting of JSON arrays/objects within one parameter. */
  maxJsonDepth: 16,
  /** Nesting of `$or` inside `$or` (a top-level `$or` is depth 1). */
  maxOrDepth: 4,
  /** Comparisons in one filter, counting every operator, `$or` branch and `$search`. */
  maxConditions: 64,
  /** Elements of one `$in` / `$nin` array. */
  maxInValues: 100,
  /** Characters of one string value. */
  maxStringLength: 1000,
  /** Characters of a `$search` text. */
  maxSearchLength: LIST_SEARCH_MAX_LENGTH,
  maxPage: 1_000_000,
  exactCountLimit: LIST_PAGING.exactCountLimit,
  maxPageSize: LIST_PAGING.maxPageSize,
  defaultPage: LIST_PAGING.defaultPage,
  defaultPageSize: LIST_PAGING.defaultPageSize,
} as const;
