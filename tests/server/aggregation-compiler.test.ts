import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import Fastify from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import {
  boolean,
  date,
  doublePrecision,
  real,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  varchar,
} from "drizzle-orm/pg-core";
import { drizzle, type PgliteDatabase } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  aggregationPreValidation,
  aggregationQuerystring,
  assertKnownAggregationParams,
  AGGREGATION_LIMITS,
  compileAggregation,
  runAggregation,
  SATURATED_COUNT_MS,
  type CollectionSpec,
} from "../../server/aggregation";
import { businessTimeZone, setBusinessTimeZone } from "../../server/business-day";
import { searchKey } from "../../server/db/search-key";
import { InvalidQueryError } from "../../server/errors";

/** The business time zone the process starts with (Asia/Kuala_Lumpur). */
const businessZone = businessTimeZone();

const mood = pgEnum("agg_mood", ["happy", "sad", "neutral"]);
const items = pgTable("agg_items", {
  id: serial().primaryKey(),
  name: text().notNull(),
  code: varchar({ length: 40 }),
  qty: integer().notNull(),
  price: doublePrecision(),
  active: boolean().notNull(),
  status: text().notNull(),
  mood: mood(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  birthday: date(),
  seenAt: timestamp("seen_at"), // without time zone: UTC wall time
  score: real(),
  notes: text(),
});
type Item = typeof items.$inferSelect;

const spec: CollectionSpec = {
  queryName: "items",
  fields: {
    id: { column: items.id, type: "numberRange", filterable: true, sortable: true },
    name: {
      column: items.name,
      type: "text",
      filterable: true,
      sortable: true,
      searchable: true,
    },
    code: { column: items.code, type: "text", filterable: true, searchable: true },
    qty: { column: items.qty, type: "numberRange", filterable: true, sortable: true },
    price: { column: items.price, type: "numberRange", filterable: true, sortable: true },
    active: { column: items.active, type: "boolean", filterable: true },
    status: {
      column: items.status,
      type: "choice",
      values: ["active", "disabled", "banned"],
      filterable: true,
      sortable: true,
    },
    mood: { column: items.mood, type: "choice", values: mood.enumValues, filterable: true },
    createdAt: { column: items.createdAt, type: "dateRange", filterable: true, sortable: true },
    birthday: { column: items.birthday, type: "dateRange", filterable: true, sortable: true },
    seenAt: { column: items.seenAt, type: "dateRange", filterable: true },
    score: { column: items.score, type: "numberRange", filterable: true },
    nameLength: { column: sql`length(${items.name})`, type: "numberRange", filterable: true },
    notes: { column: items.notes, type: "text" },
  },
  defaultSort: [["createdAt", -1]],
  tieBreaker: items.id,
};
const unsearchable: CollectionSpec = {
  ...spec,
  queryName: "plain",
  fields: { id: spec.fields.id! },
};

const SEEN_1 = new Date("2024-03-01T23:30:00Z");
const SEEN_2 = new Date("2024-03-02T00:00:00Z");
const INJECTION = "x'; drop table agg_items; --";
// prettier-ignore
const FIXTURE: Array<Omit<Item, "createdAt" | "seenAt" | "score"> & { createdAt: string }> = [
  { id: 1, name: "Alice Anders", code: "A-1", qty: 5, price: 9.5, active: true, status: "active", mood: "happy", createdAt: "2024-01-01T08:00:00Z", birthday: "1990-05-01", notes: null },
  { id: 2, name: "Bob Brown", code: "B_2", qty: 10, price: null, active: false, status: "disabled", mood: "sad", createdAt: "2024-01-01T23:59:59.999Z", birthday: null, notes: null },
  { id: 3, name: "carol cooper", code: "100%", qty: 0, price: 0, active: true, status: "banned", mood: null, createdAt: "2024-01-02T00:00:00Z", birthday: "1985-12-31", notes: null },
  { id: 4, name: "Dan O'Brien", code: INJECTION, qty: -3, price: 1.25, active: true, status: "active", mood: "neutral", createdAt: "2024-01-02T12:00:00Z", birthday: "1990-05-02", notes: null },
  { id: 5, name: "Eve", code: "back\\slash", qty: 7, price: 3, active: false, status: "active", mood: "happy", createdAt: "2024-01-03T00:00:00Z", birthday: null, notes: null },
  { id: 6, name: "Frank", code: null, qty: 1, price: 100, active: true, status: "disabled", mood: null, createdAt: "2024-01-04T00:00:00Z", birthday: "2000-02-29", notes: "secret" },
  { id: 7, name: "Grace", code: "G-7", qty: 2, price: 2, active: true, status: "active", mood: "sad", createdAt: "2024-01-05T00:00:00Z", birthday: null, notes: null },
  { id: 8, name: "Heidi", code: "h-8", qty: 3, price: null, active: false, status: "banned", mood: "neutral", createdAt: "2024-01-06T00:00:00Z", birthday: "1999-12-31", notes: null },
  { id: 9, name: "Ivan", code: "I-9", qty: 4, price: 4, active: true, status: "active", mood: "happy", createdAt: "2024-01-07T00:00:00Z", birthday: null, notes: null },
  { id: 10, name: "Judy", code: "J-10", qty: 5, price: 5, active: true, status: "active", mood: null, createdAt: "2024-02-01T00:00:00Z", birthday: null, notes: null },
  { id: 11, name: "Ken", code: "K-11", qty: 5, price: 5, active: false, status: "disabled", mood: "sad", createdAt: "2024-02-01T00:00:00Z", birthday: null, notes: null },
  { id: 12, name: "Liam", code: "L-12", qty: 6, price: 6, active: true, status: "active", mood: "happy", createdAt: "2024-02-01T00:00:00Z", birthday: null, notes: null },
  { id: 13, name: "Mallory", code: "M-13", qty: 6, price: 7, active: true, status: "banned", mood: "neutral", createdAt: "2024-02-01T00:00:00Z", birthday: null, notes: null },
  { id: 14, name: "Niaj", code: "N-14", qty: 8, price: 8, active: true, status: "active", mood: "sad", createdAt: "2024-02-02T00:00:00Z", birthday: null, notes: null },
  { id: 15, name: "Olivia", code: "O-15", qty: 9, price: 9, active: false, status: "active", mood: "happy", createdAt: "2024-02-03T00:00:00Z", birthday: null, notes: null },
  { id: 16, name: "Peggy", code: "P-16", qty: 11, price: 11, active: true, status: "disabled", mood: null, createdAt: "2024-02-04T00:00:00Z", birthday: null, notes: null },
  { id: 17, name: "Quinn", code: "Q-17", qty: 12, price: 12, active: true, status: "active", mood: "neutral", createdAt: "2024-02-05T00:00:00Z", birthday: null, notes: null },
  { id: 18, name: "Rupert", code: "R-18", qty: 13, price: 13, active: true, status: "active", mood: "happy", createdAt: "2024-02-06T00:00:00Z", birthday: null, notes: null },
  { id: 19, name: "Sybil", code: "S-19", qty: 14, price: 14, active: false, status: "banned", mood: "sad", createdAt: "2024-02-07T00:00:00Z", birthday: null, notes: null },
  { id: 20, name: "Trent", code: "T-20", qty: 15, price: 15, active: true, status: "active", mood: "neutral", createdAt: "2024-02-08T00:00:00Z", birthday: null, notes: null },
];
const ALL = FIXTURE.map((row) => row.id);
/** The default order: createdAt desc, then id desc. */
const byDefault = (list: number[]) =>
  [...list].sort((a, b) => {
    const [ra, rb] = [FIXTURE[a - 1]!, FIXTURE[b - 1]!];
    return rb.createdAt.localeCompare(ra.createdAt) || b - a;
  });
const where = (predicate: (row: (typeof FIXTURE)[number]) => boolean) =>
  byDefault(FIXTURE.filter(predicate).map((row) => row.id));

let client: PGlite;
let db: PgliteDatabase;

beforeAll(async () => {
  client = new PGlite();
  db = drizzle({ client });
  await client.exec(`
    create type agg_mood as enum ('happy', 'sad', 'neutral');
    create table agg_items (
      id serial primary key, name text not null, code varchar(40), qty integer not null,
      price double precision, active boolean not null, status text not null, mood agg_mood,
      created_at timestamptz not null, birthday date, seen_at timestamp, score real, notes text
    );`);
  await db.insert(items).values(
    FIXTURE.map((row) => ({
      ...row,
      createdAt: new Date(row.createdAt),
      seenAt: row.id === 1 ? SEEN_1 : row.id === 2 ? SEEN_2 : null,
      score: row.id === 1 ? 0.5 : null,
    })),
  );
});
afterAll(async () => {
  await client?.close();
});

type Raw = { filter?: unknown; sort?: unknown; pagination?: unknown };
const encode = (raw: Raw) =>
  Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [
      key,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
const list = (raw: Raw, on: CollectionSpec = spec) =>
  runAggregation<Item>(db, on, items, encode(raw));
/** Ids of every matching row (one page of 100) in the given or default order. */
const ids = async (filter: unknown, sort?: unknown) => {
  const { rows, totalCount } = await list({ filter, sort, pagination: { pageSize: 100 } });
  expect(totalCount).toBe(rows.length);
  return rows.map((row) => row.id);
};

describe("filter operators", () => {
  it("equality on every field type, including null", async () => {
    expect(await ids({ name: "Bob Brown" })).toEqual([2]);
    expect(await ids({ name: "bob brown" })).toEqual([]); // equality is exact
    expect(await ids({ qty: 5 })).toEqual([11, 10, 1]);
    expect(await ids({ active: false })).toEqual(where((r) => !r.active));
    expect(await ids({ status: "banned" })).toEqual([19, 13, 8, 3]);
    expect(await ids({ mood: "neutral" })).toEqual(where((r) => r.mood === "neutral"));
    expect(await ids({ code: null })).toEqual([6]);
    expect(await ids({ price: { $eq: 9.5 } })).toEqual([1]);
    expect(await ids({ score: 0.5 })).toEqual([1]);
    expect(await ids({ nameLength: 3 })).toEqual([11, 5]); // an SQL expression field
    expect(await ids({ status: "active", active: false })).toEqual([15, 5]);
  });

  it("$ne and $nin also match rows whose value is NULL", async () => {
    expect(await ids({ code: { $ne: "A-1" } })).toEqual(where((r) => r.code !== "A-1"));
    expect(await ids({ code: { $ne: "A-1" } })).toContain(6);
    expect(await ids({ price: { $ne: null } })).toEqual(where((r) => r.price !== null));
    expect(await ids({ price: { $nin: [0, 5] } })).toEqual(
      where((r) => r.price !== 0 && r.price !== 5),
    );
    expect(await ids({ status: { $nin: ["active", "disabled"] } })).toEqual([19, 13, 8, 3]);
  });

  it("$in on numbers, strings, enums and booleans", async () => {
    expect(await ids({ id: { $in: [3, 1, 99] } })).toEqual([3, 1]);
    expect(await ids({ code: { $in: ["A-1", "B_2"] } })).toEqual([2, 1]);
    expect(await ids({ mood: { $in: ["sad"] } })).toEqual(where((r) => r.mood === "sad"));
    expect(await ids({ active: { $in: [true] } })).toEqual(where((r) => r.active));
  });

  it("$gt, $gte, $lt, $lte (combinable on one field)", async () => {
    expect(await ids({ qty: { $gt: 12 } })).toEqual([20, 19, 18]);
    expect(await ids({ qty: { $gte: 12 } })).toEqual([20, 19, 18, 17]);
    expect(await ids({ qty: { $lt: 1 } })).toEqual([4, 3]);
    expect(await ids({ qty: { $lte: 1 } })).toEqual([6, 4, 3]);
    expect(await ids({ qty: { $gte: 5, $lt: 6 } })).toEqual([11, 10, 1]);
    expect(await ids({ price: { $gt: 1.1, $lte: 2 } })).toEqual([7, 4]);
    expect(await ids({ nameLength: { $gt: 10 } })).toEqual([4, 3, 1]);
    expect(await ids({ name: { $gte: "R", $lt: "T" } })).toEqual([19, 18]);
  });

  it("$contains and $startsWith are case-insensitive and treat % _ \\ literally", async () => {
    expect(await ids({ name: { $contains: "BROWN" } })).toEqual([2]);
    expect(await ids({ name: { $startsWith: "c" } })).toEqual([3]);
    expect(await ids({ name: { $startsWith: "rown" } })).toEqual([]);
    expect(await ids({ code: { $contains: "%" } })).toEqual([3]);
    expect(await ids({ code: { $contains: "_" } })).toEqual([4, 2]); // B_2, agg_items
    expect(await ids({ code: { $contains: "\\" } })).toEqual([5]);
    expect(await ids({ code: { $startsWith: "h-" } })).toEqual([8]);
  });

  it("$null", async () => {
    expect(await ids({ mood: { $null: true } })).toEqual(where((r) => r.mood === null));
    expect(await ids({ birthday: { $null: false } })).toEqual([8, 6, 4, 3, 1]);
  });

  it("YYYY-MM-DD is a whole business day (BUSINESS_TIMEZONE=UTC here); ISO-8601 is an instant", async () => {
    setBusinessTimeZone("UTC");
    try {
      expect(await ids({ createdAt: "2024-01-01" })).toEqual([2, 1]);
      expect(await ids({ createdAt: { $lt: "2024-01-02" } })).toEqual([2, 1]);
      expect(await ids({ createdAt: { $lte: "2024-01-01" } })).toEqual([2, 1]);
      expect(await ids({ createdAt: { $gt: "2024-02-06" } })).toEqual([20, 19]);
      expect(await ids({ createdAt: { $gte: "2024-02-07" } })).toEqual([20, 19]);
      expect(await ids({ createdAt: { $gte: "2024-01-02", $lte: "2024-01-03" } })).toEqual([
        5, 4, 3,
      ]);
      expect(await ids({ createdAt: { $in: ["2024-01-01", "2024-02-08"] } })).toEqual([20, 2, 1]);
      expect(await ids({ createdAt: { $ne: "2024-02-01" } })).toHaveLength(16);
      expect(await ids({ createdAt: { $nin: ["2024-02-01", "2024-01-01"] } })).toHaveLength(14);
      expect(await ids({ createdAt: "2024-01-02T12:00:00Z" })).toEqual([4]);
      expect(await ids({ createdAt: "2024-01-02T20:00:00+08:00" })).toEqual([4]);
      expect(await ids({ createdAt: "2024-01-02T12:00:00.000" })).toEqual([4]); // no offset: UTC
      expect(await ids({ createdAt: { $lt: "2024-01-01T23:59:59.999Z" } })).toEqual([1]);
      expect(await ids({ createdAt: { $lte: "2024-01-01T23:59:59.999Z" } })).toEqual([2, 1]);
      expect(await ids({ createdAt: { $gt: "2024-02-07T00:00:00Z" } })).toEqual([20]);
    } finally {
      setBusinessTimeZone(businessZone);
    }
  });

  it("day boundaries are the business time zone's, whatever the session's time zone", async () => {
    setBusinessTimeZone("UTC");
    await client.exec("set time zone 'Asia/Kuala_Lumpur'");
    try {
      expect(await ids({ createdAt: "2024-01-01" })).toEqual([2, 1]);
      expect(await ids({ createdAt: { $lt: "2024-01-02" } })).toEqual([2, 1]);
      expect(await ids({ createdAt: "2024-01-02T20:00:00+08:00" })).toEqual([4]);
    } finally {
      await client.exec("reset time zone");
      setBusinessTimeZone(businessZone);
    }
  });

  it("a business day in Asia/Kuala_Lumpur (the default) runs from 16:00 UTC the day before", async () => {
    expect(businessTimeZone()).toBe("Asia/Kuala_Lumpur");
    // 2024-01-02 in Kuala Lumpur: 2024-01-01T16:00Z up to 2024-01-02T16:00Z.
    expect(await ids({ createdAt: "2024-01-02" })).toEqual([4, 3, 2]);
    expect(await ids({ createdAt: { $lt: "2024-01-02" } })).toEqual([1]);
    expect(await ids({ createdAt: { $gte: "2024-01-02", $lte: "2024-01-02" } })).toEqual([4, 3, 2]);
    expect(await ids({ createdAt: { $gt: "2024-01-02", $lt: "2024-01-04" } })).toEqual([5]);
    expect(await ids({ createdAt: "2024-01-02T20:00:00+08:00" })).toEqual([4]);
  });

  it("dates on a timestamp-without-time-zone column (UTC wall time)", async () => {
    await client.exec("set time zone 'America/New_York'");
    try {
      expect(await ids({ seenAt: "2024-03-01" })).toEqual([1]);
      expect(await ids({ seenAt: { $gte: "2024-03-02" } })).toEqual([2]);
      expect(await ids({ seenAt: { $lte: "2024-03-01" } })).toEqual([1]);
      expect(await ids({ seenAt: "2024-03-02T08:00:00+08:00" })).toEqual([2]);
      expect(await ids({ seenAt: { $lt: "2024-03-01T23:30:00.001Z" } })).toEqual([1]);
    } finally {
      await client.exec("reset time zone");
    }
    const [row] = await db.select().from(items).where(eq(items.id, 1));
    expect(row?.seenAt).toEqual(SEEN_1);
  });

  it("dates on a calendar-date column, where a date-time counts as its UTC day", async () => {
    expect(await ids({ birthday: "1990-05-01" })).toEqual([1]);
    expect(await ids({ birthday: { $lt: "1990-05-02" } })).toEqual([3, 1]);
    expect(await ids({ birthday: { $lte: "1990-05-02" } })).toEqual([4, 3, 1]);
    expect(await ids({ birthday: { $gt: "1999-12-31" } })).toEqual([6]);
    expect(await ids({ birthday: "1990-05-02T01:00:00+02:00" })).toEqual([1]);
    expect(await ids({ birthday: { $ne: "2000-02-29" } })).toHaveLength(19);
  });

  it("$or, nested $or, and $or ANDed with sibling conditions", async () => {
    expect(await ids({ $or: [{ qty: 0 }, { name: "Eve" }] })).toEqual([5, 3]);
    expect(
      await ids({ status: "active", $or: [{ qty: { $lt: 3 } }, { mood: "neutral" }] }),
    ).toEqual([20, 17, 7, 4]);
    expect(
      await ids({ $or: [{ id: 1 }, { $or: [{ id: 2 }, { $or: [{ id: 3 }, { id: 4 }] }] }] }),
    ).toEqual([4, 3, 2, 1]);
    // A branch that is only a blank $search matches everything, so the $or does too.
    expect(await ids({ $or: [{ $search: " " }, { id: 1 }] })).toEqual(byDefault(ALL));
  });

  it("$search looks case-insensitively through the searchable fields, wildcards literal", async () => {
    expect(await ids({ $search: "ALICE" })).toEqual([1]);
    expect(await ids({ $search: "b_2" })).toEqual([2]); // code
    expect(await ids({ $search: "o" })).toEqual(where((r) => /o/i.test(r.name + (r.code ?? ""))));
    expect(await ids({ $search: "%" })).toEqual([3]);
    expect(await ids({ $search: "  Brown " })).toEqual([2]); // trimmed
    expect(await ids({ $search: "" })).toEqual(byDefault(ALL)); // blank: no condition
    expect(await ids({ $search: "e", active: false })).toEqual(
      where((r) => !r.active && /e/i.test(r.name + (r.code ?? ""))),
    );
    expect(await ids({ $search: "secret" })).toEqual([]); // notes is not searchable
  });

  it("an empty filter object means no condition", async () => {
    expect(await ids({})).toEqual(byDefault(ALL));
  });

  // Blank parameters used to be read as omitted; they are refused now (a template lost a value).
  it.each([
    ["filter", ""],
    ["sort", " "],
    ["pagination", ""],
    ["filter", "\t\n"],
    ["filter", "\v"],
    ["sort", "\f"],
    ["pagination", "\u00a0"],
    ["filter", "\ufeff"],
    ["sort", "\u2028"],
    ["pagination", "\u3000"],
  ])("a blank %s (%j) is refused", async (parameter, value) => {
    const error = await runAggregation<Item>(db, spec, items, { [parameter]: value }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as Error).message).toBe(
      `Invalid ${parameter}: is blank (omit the parameter instead)`,
    );
  });

  it.each([
    ["a NUL byte", '{"name": "a\\u0000"}', /control characters/],
    ["a lone surrogate", '{"name": "\\ud800"}', /lone surrogates/],
    ["a right-to-left override", '{"name": "a\u202eb"}', /bidirectional/],
    ["a NUL byte in a key", '{"a\\u0000": 1}', /control characters/],
    ["non-JSON whitespace around the object", "\u00a0{}", /malformed JSON/],
  ])("a filter holding %s is refused", async (_name, filter, reason) => {
    const error = await runAggregation<Item>(db, spec, items, { filter }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as Error).message).toMatch(/^Invalid filter: /);
    expect((error as Error).message).toMatch(reason);
  });

  it("a value containing SQL is only a value", async () => {
    expect(await ids({ code: INJECTION })).toEqual([4]);
    expect(await ids({ code: { $contains: "'; drop" } })).toEqual([4]);
    expect(await ids({ $search: INJECTION })).toEqual([4]);
    expect(await ids({ name: "Dan O'Brien" })).toEqual([4]);
    expect(await ids({ name: { $in: [INJECTION, "' or '1'='1"] } })).toEqual([]);
    const compiled = compileAggregation(spec, { filter: JSON.stringify({ code: INJECTION }) });
    const query = db.select().from(items).where(compiled.where).toSQL();
    expect(query.sql).not.toContain("drop");
    expect(query.params).toContain(INJECTION);
    const [{ total } = { total: 0 }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(items);
    expect(total).toBe(20);
  });

  it("edge values run on the database without error", async () => {
    const edge = [
      { price: 1e308 },
      { score: 1e300 },
      { score: { $gt: 1e-50 } },
      { price: -0 },
      { qty: 2147483647 },
      { nameLength: 1.5 },
      // The first and last days and instants of DATE_YEARS.
      { createdAt: "2199-12-31" },
      { createdAt: { $gt: "1900-01-01T00:30:00+00:30" } },
      { birthday: { $lte: "2199-12-31T23:59:59.999999999Z" } },
      { birthday: { $gte: "1900-01-01" } },
      { code: { $contains: "\\" } },
      { status: { $in: ["active", "active"] } },
    ];
    for (const filter of edge) await expect(ids(filter)).resolves.toBeInstanceOf(Array);
  });
});

describe("sorting", () => {
  it("defaults to the collection's sort, then the tie-breaker in the same direction", async () => {
    expect(await ids({})).toEqual([
      20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
    ]);
    expect(await ids({}, {})).toEqual(byDefault(ALL));
  });

  it("one key, either direction; the tie-breaker keeps equal keys stable", async () => {
    expect((await ids({}, { createdAt: 1 })).slice(9, 14)).toEqual([10, 11, 12, 13, 14]);
    expect((await ids({}, { qty: -1 })).slice(0, 4)).toEqual([20, 19, 18, 17]);
    expect((await ids({}, { qty: -1 })).slice(9, 14)).toEqual([13, 12, 11, 10, 1]);
    expect(await ids({ qty: { $in: [5, 6] } }, { qty: 1 })).toEqual([1, 10, 11, 12, 13]);
  });

  it("several keys in priority order", async () => {
    expect(await ids({ qty: { $lte: 5 } }, { status: 1, qty: -1 })).toEqual([
      10, 1, 9, 7, 4, 8, 3, 11, 6,
    ]);
    expect(await ids({ qty: { $lte: 5 } }, { qty: -1, status: 1 })).toEqual([
      1, 10, 11, 9, 8, 7, 6, 3, 4,
    ]);
    expect(await ids({ id: { $lte: 5 } }, { id: -1 })).toEqual([5, 4, 3, 2, 1]);
  });

  it("NULLs sort last in both directions", async () => {
    const asc = await ids({}, { price: 1 });
    const desc = await ids({}, { price: -1 });
    expect(asc.slice(0, 2)).toEqual([3, 4]);
    expect(asc.slice(-2)).toEqual([2, 8]);
    expect(desc.slice(0, 2)).toEqual([6, 20]);
    expect(desc.slice(-2)).toEqual([8, 2]);
  });
});

describe("pagination", () => {
  it("defaults to page 1 of 10 rows", async () => {
    const { totalCount, rows } = await list({});
    expect(totalCount).toBe(20);
    expect(rows.map((row) => row.id)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
    expect(rows[0]).toMatchObject({
      id: 20,
      name: "Trent",
      createdAt: new Date("2024-02-08T00:00:00Z"),
    });
    expect(compileAggregation(spec, {})).toMatchObject({
      page: 1,
      pageSize: 10,
      limit: 10,
      offset: 0,
    });
  });

  it("pages through, with a partial last page and empty pages beyond", async () => {
    const page = (n: number) => list({ pagination: { page: n, pageSize: 7 } });
    expect((await page(2)).rows.map((row) => row.id)).toEqual([13, 12, 11, 10, 9, 8, 7]);
    expect(await page(3)).toMatchObject({ totalCount: 20, rows: expect.any(Array) });
    expect((await page(3)).rows.map((row) => row.id)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(await page(4)).toEqual({ totalCount: 20, rows: [], totalCountExact: true });
    expect(await list({ pagination: { page: 1_000_000, pageSize: 100 } })).toEqual({
      totalCount: 20,
      rows: [],
      totalCountExact: true,
    });
    expect(compileAggregation(spec, { pagination: '{"page": 3, "pageSize": 7}' })).toMatchObject({
      page: 3,
      pageSize: 7,
      limit: 7,
      offset: 14,
    });
  });

  it("counts the filtered rows, and ANDs a route's baseWhere", async () => {
    const { totalCount, rows } = await list({
      filter: { status: "active" },
      pagination: { pageSize: 2 },
    });
    expect(totalCount).toBe(12);
    expect(rows.map((row) => row.id)).toEqual([20, 18]);
    const scoped = await runAggregation<Item>(
      db,
      spec,
      items,
      { filter: '{"qty": {"$lt": 5}}' },
      { baseWhere: eq(items.active, true) },
    );
    expect(scoped.totalCount).toBe(5);
    expect(scoped.rows.map((row) => row.id)).toEqual([9, 7, 6, 4, 3]);
  });
});

describe("invalid input → 400 INVALID_QUERY naming the parameter and the field", () => {
  const deepOr = (levels: number): unknown =>
    levels === 0 ? { id: 1 } : { $or: [deepOr(levels - 1)] };
  // [parameter, value sent (objects are JSON-encoded), words the message must contain]
  const cases: Array<[keyof Raw, unknown, string[]]> = [
    ["filter", "{", ["malformed JSON"]],
    ["filter", '{"name": "a",}', ["malformed JSON"]],
    ["filter", "{'name': 'a'}", ["malformed JSON"]],
    ["filter", '{"name": "a"} x', ["malformed JSON"]],
    ["filter", "[]", ["JSON object", "array"]],
    ["filter", "42", ["JSON object", "number"]],
    ["filter", "null", ["JSON object"]],
    ["filter", '{"qty": 1, "qty": 2}', ["duplicate", "qty"]],
    ["filter", '{"qty": 1e999}', ["out of range"]],
    ["filter", "[".repeat(5000), ["nested too deeply"]],
    ["filter", `{"name": "${"a".repeat(9000)}"}`, ["too long"]],
    ["filter", { notes: "secret" }, ['"notes"', "not filterable", "items"]],
    ["filter", { nope: 1 }, ['"nope"', "not filterable", "items"]],
    ["filter", { __proto__x: 1, constructor: 1 }, ['"__proto__x"', "not filterable"]],
    ["filter", { $and: [{ id: 1 }] }, ['"$and"', "unknown operator"]],
    ["filter", { name: { $regex: "a" } }, ['"$regex"', '"name"', "unknown operator"]],
    ["filter", { name: { eq: "a" } }, ['"eq"', '"name"']],
    ["filter", { name: {} }, ['"name"', "empty operator object"]],
    ["filter", { name: ["a", "b"] }, ['"name"', "$in"]],
    ["filter", { name: 5 }, ['"name"', "string", "number"]],
    // Refused by the parser now (the API's one text rule), before the value reaches its field.
    ["filter", { name: `a\u0000b` }, ['"name"', "control characters", "U+0000"]],
    ["filter", { name: "a".repeat(1001) }, ['"name"', "longer than 1000"]],
    ["filter", { qty: "5" }, ['"qty"', "number", "string"]],
    ["filter", { qty: 1.5 }, ['"qty"', "integer"]],
    ["filter", { qty: 3_000_000_000 }, ['"qty"', "between"]],
    ["filter", { id: { $gt: true } }, ['"id"', "$gt", "number", "boolean"]],
    ["filter", { active: "true" }, ['"active"', "boolean", "string"]],
    ["filter", { active: { $gt: true } }, ['"active"', "$gt", "not supported on boolean"]],
    ["filter", { status: "paused" }, ['"status"', '"active", "disabled", "banned"', '"paused"']],
    ["filter", { status: { $lt: "banned" } }, ['"status"', "$lt", "enum"]],
    ["filter", { mood: "angry" }, ['"mood"', '"happy", "sad", "neutral"']],
    ["filter", { createdAt: "2024-13-01" }, ['"createdAt"', "YYYY-MM-DD", "2024-13-01"]],
    ["filter", { createdAt: "2023-02-29" }, ['"createdAt"', "YYYY-MM-DD"]],
    ["filter", { createdAt: "2024-01-01T24:00:00Z" }, ['"createdAt"', "ISO-8601"]],
    ["filter", { createdAt: "2024-01-01T10:00:00+25:00" }, ['"createdAt"', "ISO-8601"]],
    ["filter", { createdAt: "yesterday" }, ['"createdAt"', "YYYY-MM-DD"]],
    ["filter", { createdAt: 20240101 }, ['"createdAt"', "YYYY-MM-DD", "number"]],
    ["filter", { birthday: { $gte: "0999-12-31" } }, ['"birthday"', "$gte", "1900 to 2199"]],
    // Outside DATE_YEARS: the driver reads year 0020 as no date and 0001 as 2001.
    ["filter", { createdAt: "0020-02-29" }, ['"createdAt"', "1900 to 2199", "0020-02-29"]],
    ["filter", { createdAt: { $lt: "1899-12-31T23:59:59Z" } }, ['"createdAt"', "$lt", "years"]],
    // An instant is in its UTC year, as a body's is: this one is in 1899, that one in 2200.
    ["filter", { createdAt: { $gte: "1900-01-01T00:30:00+01:00" } }, ['"createdAt"', "years"]],
    ["filter", { birthday: "2199-12-31 23:00-0500" }, ['"birthday"', "years"]],
    ["filter", { seenAt: { $in: ["2024-01-01", "2200-01-01"] } }, ['"seenAt"', "$in", "years"]],
    ["filter", { birthday: "9999-12-31" }, ['"birthday"', "1900 to 2199"]],
    ["filter", { createdAt: "+275760-09-13T00:00:00Z" }, ['"createdAt"', "ISO-8601"]],
    // A blank text value is a value a template lost: refused, never "every row".
    ["filter", { name: { $contains: "" } }, ['"name"', "$contains", "blank string"]],
    ["filter", { name: { $startsWith: " \u3000" } }, ['"name"', "$startsWith", "blank"]],
    ["filter", { code: "" }, ['field "code"', "blank"]],
    ["filter", { name: { $ne: " " } }, ['"name"', "$ne", "blank"]],
    ["filter", { name: { $in: ["Alice", "\u00a0"] } }, ['"name"', "$in", "blank"]],
    ["filter", { name: { $gte: "" } }, ['"name"', "$gte", "blank"]],
    ["filter", { $or: [{ id: 1 }, { code: { $contains: " " } }] }, ['"code"', "$or[1]", "blank"]],
    ["filter", { qty: { $in: [] } }, ['"qty"', "$in", "non-empty array"]],
    ["filter", { qty: { $nin: 5 } }, ['"qty"', "$nin", "non-empty array"]],
    ["filter", { qty: { $in: [1, "2"] } }, ['"qty"', "$in", "number"]],
    ["filter", { qty: { $in: [null] } }, ['"qty"', "$in", "null"]],
    ["filter", { id: { $in: ALL.concat(...Array(5).fill(ALL)) } }, ['"id"', "$in", "at most 100"]],
    ["filter", { qty: { $contains: "1" } }, ['"qty"', "$contains", "only", "string fields"]],
    ["filter", { status: { $startsWith: "a" } }, ['"status"', "$startsWith", "string fields"]],
    ["filter", { name: { $contains: 5 } }, ['"name"', "$contains", "string"]],
    ["filter", { name: { $null: "yes" } }, ['"name"', "$null", "true or false"]],
    ["filter", { name: { $gt: null } }, ['"name"', "$gt", "null"]],
    ["filter", { $or: [] }, ["$or", "non-empty array"]],
    ["filter", { $or: { id: 1 } }, ["$or", "non-empty array", "object"]],
    ["filter", { $or: [{}] }, ["$or[0]", "non-empty filter object"]],
    ["filter", { $or: [{ id: 1 }, 1] }, ["$or[1]", "non-empty filter object"]],
    ["filter", { $or: [{ id: 1 }, { nope: 1 }] }, ['"nope"', "not filterable", "$or[1]"]],
    ["filter", { $or: [{ $or: [{ qty: "x" }] }] }, ['"qty"', "$or[0].$or[0]"]],
    ["filter", deepOr(5), ["$or", "nested too deeply"]],
    [
      "filter",
      { $or: Array.from({ length: 65 }, (_, i) => ({ id: i + 1 })) },
      ["too many conditions"],
    ],
    ["filter", { $search: 5 }, ["$search", "string"]],
    ["filter", { $search: "x".repeat(201) }, ["$search", "longer than 200"]],
    ["sort", "{name: 1}", ["malformed JSON"]],
    ["sort", '["name"]', ["JSON object", "array"]],
    ["sort", { notes: 1 }, ['"notes"', "not sortable", "items"]],
    ["sort", { active: 1 }, ['"active"', "not sortable", "items"]],
    ["sort", { name: 0 }, ['"name"', "1", "-1", "got 0"]],
    ["sort", { name: "asc" }, ['"name"', "direction", "string"]],
    ["sort", { name: true }, ['"name"', "direction", "boolean"]],
    ["sort", '{"name": 1, "qty": -1, "name": -1}', ["duplicate", '"name"']],
    ["sort", { [INJECTION]: 1 }, [INJECTION, "not sortable"]],
    ["pagination", "{", ["malformed JSON"]],
    ["pagination", "[1, 10]", ["JSON object"]],
    ["pagination", { page: 0 }, ['"page"', "between 1 and 1000000", "got 0"]],
    ["pagination", { page: -1 }, ['"page"', "between"]],
    ["pagination", { page: 1_000_001 }, ['"page"', "between"]],
    ["pagination", { page: 1.5 }, ['"page"', "integer"]],
    ["pagination", { page: "2" }, ['"page"', "integer", "string"]],
    ["pagination", { page: null }, ['"page"', "integer", "null"]],
    ["pagination", { pageSize: 0 }, ['"pageSize"', "between 1 and 100"]],
    ["pagination", { pageSize: 101 }, ['"pageSize"', "between 1 and 100", "got 101"]],
    ["pagination", { page: 1, limit: 10 }, ['"limit"', "unknown key"]],
  ];

  it.each(cases)("%s %j", async (parameter, value, words) => {
    const error = await list({ [parameter]: value }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidQueryError);
    const { statusCode, code, message } = error as InvalidQueryError;
    expect({ statusCode, code }).toEqual({ statusCode: 400, code: "INVALID_QUERY" });
    expect(message.startsWith(`Invalid ${parameter}: `)).toBe(true);
    for (const word of words) expect(message).toContain(word);
  });

  it("$search on a collection without searchable fields", async () => {
    const error = await list({ filter: { $search: "x" } }, unsearchable).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidQueryError);
    expect((error as Error).message).toMatch(
      /^Invalid filter: "\$search" is not supported on plain/,
    );
  });
});

describe("query parameters", () => {
  const rejection = (query: unknown) => {
    try {
      assertKnownAggregationParams(query);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it("accepts the three parameters and rejects others by name", async () => {
    expect(rejection({ filter: "{}", sort: "{}", pagination: "{}" })).toBeUndefined();
    expect(rejection({})).toBeUndefined();
    const unknown = rejection({ filter: "{}", page: "2", limit: "5" });
    expect(unknown).toBeInstanceOf(InvalidQueryError);
    expect(unknown).toMatchObject({
      statusCode: 400,
      code: "INVALID_QUERY",
      parameter: "page, limit",
    });
    expect((unknown as Error).message).toMatch(/^Invalid page, limit: unknown query parameters/);
    expect(rejection({ filter: ["{}", "{}"] })).toMatchObject({
      code: "INVALID_QUERY",
      message: "Invalid filter: must be given once, as a JSON-encoded string",
    });
    await expect(aggregationPreValidation({ query: { sortBy: "x" } })).rejects.toMatchObject({
      code: "INVALID_QUERY",
      parameter: "sortBy",
    });
  });

  it("the zod querystring schema is strict", () => {
    expect(aggregationQuerystring.safeParse({ filter: "{}" }).success).toBe(true);
    expect(aggregationQuerystring.safeParse({}).success).toBe(true);
    expect(aggregationQuerystring.safeParse({ other: "1" }).success).toBe(false);
    expect(aggregationQuerystring.safeParse({ filter: 1 }).success).toBe(false);
  });
});

describe("wiring into a Fastify route", () => {
  it("unknown or repeated parameters are INVALID_QUERY, not a zod VALIDATION_ERROR", async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.get(
      "/items/aggregation",
      { schema: { querystring: aggregationQuerystring }, preValidation: aggregationPreValidation },
      async (request) => {
        const { totalCount, rows } = await runAggregation<Item>(db, spec, items, request.query);
        return { totalCount, items: rows.map((row) => row.id) };
      },
    );
    const get = async (query: string) => {
      const response = await app.inject({ method: "GET", url: `/items/aggregation?${query}` });
      return { status: response.statusCode, body: response.json() as Record<string, unknown> };
    };
    const ok = await get(
      `filter=${encodeURIComponent('{"qty":{"$gt":12}}')}&pagination=${encodeURIComponent('{"pageSize":2}')}`,
    );
    expect(ok).toEqual({ status: 200, body: { totalCount: 3, items: [20, 19] } });
    expect(await get("sortBy=name")).toMatchObject({
      status: 400,
      body: { code: "INVALID_QUERY", message: expect.stringMatching(/^Invalid sortBy: /) },
    });
    expect(await get("filter=%7B%7D&filter=%7B%7D")).toMatchObject({
      status: 400,
      body: { code: "INVALID_QUERY", message: expect.stringMatching(/^Invalid filter: /) },
    });
    expect(await get(`filter=${encodeURIComponent('{"nope":1}')}`)).toMatchObject({
      status: 400,
      body: { code: "INVALID_QUERY", message: expect.stringContaining('"nope"') },
    });
    await app.close();
  });
});

describe("counting at scale", () => {
  const { exactCountLimit } = AGGREGATION_LIMITS;
  const many = pgTable("agg_many", {
    id: integer().primaryKey(),
    label: text().notNull(),
    search: text(),
  });
  const manySpec: CollectionSpec = {
    queryName: "many",
    fields: {
      id: { column: many.id, type: "numberRange", filterable: true, sortable: true },
      label: { column: many.label, type: "text", filterable: true, searchable: true },
    },
    defaultSort: [["id", 1]],
    tieBreaker: many.id,
    searchKey: searchKey(many.search),
  };
  const listMany = (raw: Raw) => runAggregation<{ id: number }>(db, manySpec, many, encode(raw));

  beforeAll(async () => {
    await client.exec(`
      create table agg_many (id integer primary key, label text not null,
        search text generated always as (lower(label)) stored);
      insert into agg_many (id, label)
        select n, case when n % 2 = 0 then 'Even item ' else 'Odd item ' end || n
        from generate_series(1, ${exactCountLimit + 1}) as n;`);
  });

  it("counts exactly up to the limit, then answers the limit as a lower bound", async () => {
    expect(await listMany({ filter: { id: { $lte: exactCountLimit } } })).toMatchObject({
      totalCount: exactCountLimit,
      totalCountExact: true,
    });
    expect(await listMany({})).toMatchObject({
      totalCount: exactCountLimit,
      totalCountExact: false,
    });
  });

  it("remembers a count that reached the limit for a while, then counts afresh", async () => {
    const extra = { filter: { label: { $startsWith: "Extra" } }, pagination: { pageSize: 10 } };
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      await client.exec(`insert into agg_many (id, label)
        select n, 'Extra ' || n from generate_series(100001, ${100000 + exactCountLimit + 1}) as n`);
      expect(await listMany(extra)).toMatchObject({
        totalCount: exactCountLimit,
        totalCountExact: false,
      });
      await client.exec("delete from agg_many where id > 100400");
      // Still more than the limit as far as the list knows, without counting again …
      vi.advanceTimersByTime(SATURATED_COUNT_MS - 1000);
      expect(await listMany(extra)).toMatchObject({
        totalCount: exactCountLimit,
        totalCountExact: false,
      });
      // … until the count is old; a count below the limit is never remembered.
      vi.advanceTimersByTime(2000);
      expect(await listMany(extra)).toMatchObject({ totalCount: 400, totalCountExact: true });
      await client.exec("delete from agg_many where id > 100390");
      expect(await listMany(extra)).toMatchObject({ totalCount: 390, totalCountExact: true });
    } finally {
      vi.useRealTimers();
      await client.exec("delete from agg_many where id > 100000");
    }
  });

  it("still serves the pages beyond the counted rows; a last page tells the exact total", async () => {
    const last = await listMany({ pagination: { page: exactCountLimit / 10 + 1, pageSize: 10 } });
    expect(last.rows.map((row) => row.id)).toEqual([exactCountLimit + 1]);
    expect(last).toMatchObject({ totalCount: exactCountLimit + 1, totalCountExact: true });
    const full = await listMany({ pagination: { page: exactCountLimit / 10, pageSize: 10 } });
    expect(full).toMatchObject({ totalCount: exactCountLimit, totalCountExact: false });
    const beyond = await listMany({ pagination: { page: exactCountLimit / 10 + 2, pageSize: 10 } });
    expect(beyond).toMatchObject({ rows: [], totalCount: exactCountLimit, totalCountExact: false });
  });

  it("searches a searchKey with the same matches as the fields, wildcards literal", async () => {
    const found = await listMany({
      filter: { $search: "EVEN item 100" },
      pagination: { pageSize: 100 },
    });
    const expected = Array.from({ length: exactCountLimit + 1 }, (_, i) => i + 1).filter(
      (n) => n % 2 === 0 && `even item ${n}`.includes("even item 100"),
    );
    expect(found.rows.map((row) => row.id)).toEqual(expected.slice(0, 100));
    expect(found.totalCount).toBe(expected.length);
    expect((await listMany({ filter: { $search: "odd_1" } })).totalCount).toBe(0);
  });

  it("matches separators only as themselves through the search key", async () => {
    const ids = async (term: string) =>
      (await listMany({ filter: { $search: term } })).rows.map((row) => row.id);
    expect(await ids("EVEN ITEM 10")).toEqual([10, 100, 102, 104, 106, 108, 1000]);
    // The search key writes a space as "S" and "_" as "U": neither letter, nor another
    // separator, stands in for it.
    expect(await ids("evensitem 10")).toEqual([]);
    expect(await ids("even.item 10")).toEqual([]);
    expect(await ids("even_item 10")).toEqual([]);
    expect(await ids("evenuitem")).toEqual([]);
  });

  it("answers a search's total the same way: counted when the page is full, told by a last page", async () => {
    const search = (page: number) =>
      listMany({ filter: { $search: "ITEM" }, pagination: { page, pageSize: 10 } });
    expect(await search(1)).toMatchObject({ totalCount: exactCountLimit, totalCountExact: false });
    const last = await search(exactCountLimit / 10 + 1);
    expect(last).toMatchObject({ totalCount: exactCountLimit + 1, totalCountExact: true });
    expect(await search(exactCountLimit / 10 + 2)).toMatchObject({
      rows: [],
      totalCount: exactCountLimit,
      totalCountExact: false,
    });
    const one = await listMany({ filter: { $search: "odd item 1001" } });
    expect(one).toMatchObject({ totalCount: 1, totalCountExact: true });
  });
});
