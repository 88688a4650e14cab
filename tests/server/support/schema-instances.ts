/**
 * Instances of a JSON Schema (the subset the OpenAPI document uses), generated from the schema
 * alone and deterministically: what a client generated from the document, or an outside fuzzer,
 * may send. Used by tests/server/openapi-truth.test.ts to prove that the server accepts what its
 * document allows. Every instance is checked against the schema (ajv) before it is returned, so
 * a generator mistake cannot pass for a server fault.
 *
 * Covered: type, enum, const, nullable, pattern (one, or several under allOf), minLength and
 * maxLength (in code points, as JSON Schema counts), format (date, date-time, email, uri),
 * minimum/maximum (with OpenAPI 3.0's boolean exclusive bounds), properties, required,
 * additionalProperties, minProperties, items, minItems/maxItems, uniqueItems, anyOf/oneOf/allOf
 * (an object's `allOf` of alternatives between its properties by the final check alone).
 */
import { Ajv, type ValidateFunction } from "ajv";
import fc from "fast-check";

import { forAjv, type JsonSchema } from "./openapi";

export interface Instance {
  value: unknown;
  /** What the instance exercises, for a failure's message (`name: longest`). */
  note: string;
}

/* ---------- the document's JSON Schema, for ajv ---------- */

const ajv = new Ajv({
  strict: false,
  validateFormats: false,
  unicodeRegExp: true,
  allErrors: true,
});
const validators = new WeakMap<object, ValidateFunction>();

/** Whether the document's `schema` allows `value`, and if not, why. */
export function documentVerdict(schema: JsonSchema, value: unknown): string | undefined {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(forAjv(schema) as JsonSchema);
    validators.set(schema, validate);
  }
  return validate(value) ? undefined : ajv.errorsText(validate.errors);
}

/* ---------- strings ---------- */

const codePoints = (text: string) => [...text].length;

/** Every pattern a string schema states: its own and those of its allOf parts. */
function patternsOf(schema: JsonSchema): RegExp[] {
  const own = typeof schema.pattern === "string" ? [schema.pattern] : [];
  const parts = ((schema.allOf as JsonSchema[] | undefined) ?? []).flatMap((part) =>
    typeof part.pattern === "string" ? [part.pattern] : [],
  );
  return [...own, ...parts].map((pattern) => new RegExp(pattern, "u"));
}

/** Strings a client could plausibly send, tried against each schema (longest ones are built). */
const CANDIDATES = [
  "Sample text 1",
  "A",
  "a1",
  "1",
  "42",
  "AB12",
  "ABC-123",
  "Zoë Ñandú-Łódź",
  "测试中文名字",
  "😀",
  "Ahmad bin Abdullah",
  "line one\nline two\twith a tab",
  "user@example.com",
  "first.last+tag@sub.example.my",
  "https://example.com/path?q=1",
  "1.2.3",
  "0.0.0",
  "1,2,3",
  "0123456789abcdef0123456789abcdef",
  "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE",
  "WKL1234",
  "{}",
  " ",
  "\u200b",
  "x\u200b",
];

const DAYS = ["2024-02-29", "1900-01-01", "2199-12-31"];
const INSTANTS = [
  "2026-03-01T08:00:00+08:00",
  "2024-02-29T12:34:56Z",
  "1900-01-01T00:00:00Z",
  "2199-12-31T23:59:59.999Z",
];

/**
 * The longest string for a schema with a maxLength: the typical one padded with `unit` up to it,
 * or `unit` repeated (an e-mail pads its local part).
 */
function longest(schema: JsonSchema, unit: string, seed: string): string | undefined {
  const max = schema.maxLength as number | undefined;
  if (max === undefined || max > 100_000) return undefined;
  const at = seed.indexOf("@");
  if (at > 0) {
    const room = max - codePoints(seed);
    return room >= 0 ? unit.repeat(room) + seed : undefined;
  }
  return unit.repeat(max);
}

function fits(schema: JsonSchema, patterns: RegExp[], text: string): boolean {
  const length = codePoints(text);
  if (length < ((schema.minLength as number | undefined) ?? 0)) return false;
  if (length > ((schema.maxLength as number | undefined) ?? Infinity)) return false;
  return patterns.every((pattern) => pattern.test(text));
}

function stringInstances(schema: JsonSchema, seed: number): Instance[] {
  const patterns = patternsOf(schema);
  const format = schema.format as string | undefined;
  const pool: Array<[string, string]> = [];
  if (format === "date") pool.push(...DAYS.map((day) => [day, `day ${day}`] as [string, string]));
  if (format === "date-time")
    pool.push(...INSTANTS.map((at) => [at, `instant ${at}`] as [string, string]));
  pool.push(...CANDIDATES.map((text) => [text, JSON.stringify(text)] as [string, string]));
  const typical = pool.find(([text]) => fits(schema, patterns, text))?.[0];
  const min = (schema.minLength as number | undefined) ?? 0;
  if (min > 0) pool.push(["x".repeat(min), "shortest"]);
  for (const [unit, note] of [
    ["x", "longest"],
    ["名", "longest, Chinese"],
    ["é", "longest, accented"],
  ] as const) {
    const text = longest(schema, unit, typical ?? "");
    if (text !== undefined) pool.push([text, note]);
  }
  if (min === 0) pool.push(["", "empty"]);
  // Patterns no candidate matches (tokens, codes): fast-check writes matching strings.
  for (const pattern of patterns) {
    for (const text of fc.sample(fc.stringMatching(pattern), { numRuns: 6, seed })) {
      pool.push([text, `matching ${pattern.source.slice(0, 30)}`]);
    }
  }
  const seen = new Set<string>();
  const out: Instance[] = [];
  for (const [text, note] of pool) {
    if (seen.has(text) || !fits(schema, patterns, text)) continue;
    seen.add(text);
    out.push({ value: text, note });
  }
  return out;
}

/* ---------- numbers ---------- */

function numberInstances(schema: JsonSchema): Instance[] {
  const integer = schema.type === "integer";
  const step = integer ? 1 : 0.5;
  let min = (schema.minimum as number | undefined) ?? -1_000_000;
  let max = (schema.maximum as number | undefined) ?? 1_000_000;
  if (schema.exclusiveMinimum === true) min += step;
  if (typeof schema.exclusiveMinimum === "number") min = schema.exclusiveMinimum + step;
  if (schema.exclusiveMaximum === true) max -= step;
  if (typeof schema.exclusiveMaximum === "number") max = schema.exclusiveMaximum - step;
  const typical = Math.min(Math.max(1, min), max);
  const middle = integer ? Math.floor((min + max) / 2) : (min + max) / 2;
  const values: Array<[number, string]> = [
    [typical, "typical"],
    [min, "minimum"],
    [max, "maximum"],
    [middle, "middle"],
  ];
  if (!integer) values.push([Math.min(max, Math.max(min, 1.5)), "fraction"]);
  return dedupe(values.map(([value, note]) => ({ value, note })));
}

/* ---------- the rest ---------- */

function dedupe(instances: Instance[]): Instance[] {
  const seen = new Set<string>();
  return instances.filter((instance) => {
    const key = JSON.stringify(instance.value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** allOf parts that only constrain (patterns, bounds) merged into their schema. */
function merged(schema: JsonSchema): JsonSchema {
  const parts = schema.allOf as JsonSchema[] | undefined;
  if (!parts || parts.some((part) => part.properties || part.anyOf || part.oneOf)) return schema;
  if (patternsOf(schema).length > 0 || schema.type === "string") return schema;
  const out: JsonSchema = { ...schema };
  delete out.allOf;
  for (const part of parts) Object.assign(out, merged(part));
  return out;
}

/**
 * Valid instances of `schema`: a typical one first, then boundary cases (each a typical instance
 * with one place varied), none repeated. The whole schema judges each (ajv): the rules between
 * properties (an `allOf` of alternatives, `minProperties`) are kept by dropping the instances
 * that break them, so what is returned is what the document allows.
 */
export function instancesOf(schema: JsonSchema, seed = 1): Instance[] {
  return generated(schema, seed, 0).filter(
    (instance) => documentVerdict(schema, instance.value) === undefined,
  );
}

function generated(schema: JsonSchema, seed: number, depth: number): Instance[] {
  const s = merged(schema);
  const nullable: Instance[] = s.nullable === true ? [{ value: null, note: "null" }] : [];
  if (s.const !== undefined) return [{ value: s.const, note: "const" }];
  if (Array.isArray(s.enum)) {
    return dedupe([
      ...(s.enum as unknown[]).map((value) => ({ value, note: `enum ${JSON.stringify(value)}` })),
      ...nullable,
    ]);
  }
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    const each = variants.map((variant) => generated(variant, seed, depth));
    // The typical instance of every variant first, then the rest.
    return dedupe([
      ...each.flatMap((list) => list.slice(0, 1)),
      ...each.flatMap((list) => list.slice(1)),
      ...nullable,
    ]);
  }
  let own: Instance[];
  switch (s.type) {
    case "string":
      own = stringInstances(s, seed);
      break;
    case "integer":
    case "number":
      own = numberInstances(s);
      break;
    case "boolean":
      own = [
        { value: true, note: "true" },
        { value: false, note: "false" },
      ];
      break;
    case "array":
      own = arrayInstances(s, seed, depth);
      break;
    case "object":
      own = objectInstances(s, seed, depth);
      break;
    default:
      own = [{ value: "any value", note: "any" }];
  }
  return dedupe([...own, ...nullable]);
}

function arrayInstances(schema: JsonSchema, seed: number, depth: number): Instance[] {
  const items = generated((schema.items as JsonSchema | undefined) ?? {}, seed, depth + 1);
  const min = (schema.minItems as number | undefined) ?? 0;
  const max = Math.min((schema.maxItems as number | undefined) ?? 3, 50);
  const unique = schema.uniqueItems === true;
  if (items.length === 0) return min === 0 ? [{ value: [], note: "empty list" }] : [];
  const out: Instance[] = [];
  const of = (count: number) =>
    Array.from({ length: count }, (_, i) => items[i % items.length]!.value);
  out.push({ value: of(Math.max(min, 1)), note: "one item" });
  if (min === 0) out.push({ value: [], note: "empty list" });
  const distinct = Math.min(max, items.length);
  if (distinct >= min) out.push({ value: of(distinct), note: `${distinct} distinct items` });
  if (!unique && max >= 2 && max >= min) {
    out.push({
      value: Array.from({ length: Math.max(2, min) }, () => items[0]!.value),
      note: "repeated item",
    });
  }
  // Each item's other boundary cases, one at a time.
  for (const item of items.slice(1, 8)) {
    out.push({ value: [...of(Math.max(min, 1) - 1), item.value], note: `item ${item.note}` });
  }
  return out;
}

function objectInstances(schema: JsonSchema, seed: number, depth: number): Instance[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const each = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [
      key,
      generated(property, seed, depth + 1),
    ]),
  );
  const keys = Object.keys(each).filter((key) => each[key]!.length > 0);
  const full = Object.fromEntries(keys.map((key) => [key, each[key]![0]!.value]));
  const minimal = Object.fromEntries(
    keys.filter((key) => required.has(key)).map((key) => [key, each[key]![0]!.value]),
  );
  const out: Instance[] = [{ value: full, note: "every property" }];
  const minProperties = (schema.minProperties as number | undefined) ?? 0;
  if (Object.keys(minimal).length >= minProperties) {
    out.push({ value: minimal, note: "required properties only" });
  }
  // A record (additionalProperties a schema, no properties): a key of its own.
  const extra = schema.additionalProperties;
  if (keys.length === 0 && extra && typeof extra === "object") {
    const values = generated(extra as JsonSchema, seed, depth + 1);
    if (values[0]) out.push({ value: { someKey: values[0].value }, note: "a record entry" });
  }
  for (const key of keys) {
    for (const variant of each[key]!.slice(1)) {
      out.push({ value: { ...full, [key]: variant.value }, note: `${key}: ${variant.note}` });
    }
    if (!required.has(key) && Object.keys(full).length - 1 >= minProperties) {
      const without = { ...full };
      delete without[key];
      out.push({ value: without, note: `without ${key}` });
    }
  }
  return dedupe(out);
}

/**
 * A deterministic sample of `count` instances: the first (typical) always, the others picked
 * with a seeded shuffle so that every run sends the same cases.
 */
export function sample<T>(list: T[], count: number, seed: number): T[] {
  if (list.length <= count) return list;
  const [first, ...rest] = list;
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
  for (let i = rest.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return [first!, ...rest.slice(0, count - 1)];
}
