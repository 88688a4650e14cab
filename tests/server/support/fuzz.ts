/**
 * Property-based fuzz of the API from its own OpenAPI document (fast-check): for every
 * operation, generated query parameters, path parameters and JSON bodies, each case carrying what
 * the document says must happen to it:
 * - input the document's schemas refuse (ajv decides) is refused with 400: never ignored;
 * - an aggregation list's filter, sort and pagination are built from its `x-aggregation`
 *   allow-list, valid or with one deliberate defect (an unknown or unsortable field, a wrong type,
 *   an out-of-range page, malformed or blank JSON, an unknown or repeated parameter): a valid one
 *   answers 200, a defective one 400 INVALID_QUERY;
 * - nothing ever answers 5xx.
 * The CI suite (tests/server/openapi-fuzz.test.ts) and the bench (bench/fuzz.ts) run it.
 */
import { Ajv, type ValidateFunction } from "ajv";
import fc from "fast-check";

import type { App } from "../../../server/app";
import {
  describeOperation,
  forAjv,
  urlOf,
  type JsonSchema,
  type Operation,
  type Parameter,
} from "./openapi";

type Verdict = "valid" | "invalid" | "either";

interface Generated<T> {
  value: T;
  verdict: Verdict;
  /** Why the case is invalid (or "either"), for the failure report. */
  why?: string;
}

export interface FuzzCase {
  operation: Operation;
  method: Operation["method"];
  url: string;
  /** The raw request body (already JSON text), if any. */
  body?: string;
  verdict: Verdict;
  why: string;
  /** A list's answer must be INVALID_QUERY when refused (the aggregation contract's code). */
  aggregation: boolean;
}

export interface FuzzFailure {
  request: string;
  status: number;
  expected: string;
  answer: string;
}

export interface FuzzResult {
  cases: number;
  failures: FuzzFailure[];
  statuses: Record<number, number>;
}

export interface FuzzContext {
  /** Ids the generated path parameters and integers avoid (the fuzzing administrator's own). */
  avoidIds: readonly number[];
}

const worst = (verdicts: Verdict[]): Verdict =>
  verdicts.includes("invalid") ? "invalid" : verdicts.includes("either") ? "either" : "valid";

/**
 * Dates outside the years the API takes (DATE_YEARS): read by the database driver as another year
 * or as no date, or not ISO-8601 at all (expanded years). Refused wherever a date goes.
 */
const FAR_DATES = [
  "0020-02-29T00:00:00Z",
  "0001-01-01",
  "1899-12-31T23:59:59Z",
  "2200-01-01",
  "9999-12-31T23:59:59Z",
  "+275760-09-13T00:00:00Z",
  "-000001-01-01T00:00:00Z",
];

/** Dates the API takes: an instant and its UTC day, in the years around now. */
const instant = fc.date({
  min: new Date("2000-01-01"),
  max: new Date("2035-12-31"),
  noInvalidDate: true,
});
const day = instant.map((date) => date.toISOString().slice(0, 10));

/** Hostile text: control and bidi characters, lone surrogates, numbers in disguise, blanks. */
const NASTY_TEXT = [
  ...FAR_DATES,
  "",
  " ",
  "\u00a0",
  "\ufeff",
  "\u0000",
  "a\u0000b",
  "\u202e",
  "\u200b",
  "\ud800",
  "1e2",
  "0x10",
  "-1",
  "01",
  " 1",
  "9".repeat(40),
  "2147483648",
  "1.5",
  "null",
  "true",
  "{}",
  "[]",
  "'; drop table users; --",
  "../../etc/passwd",
  "%00",
  "x".repeat(600),
];

const anyText = fc.oneof(
  fc.constantFrom(...NASTY_TEXT),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 20 }),
);

function patternText(pattern: string | undefined): fc.Arbitrary<string> | undefined {
  if (!pattern) return undefined;
  try {
    return fc.stringMatching(new RegExp(pattern, "u")).filter((text) => text.length <= 80);
  } catch {
    return undefined;
  }
}

/** A string for `schema`: mostly one it accepts, often one it may not. */
function textFor(schema: JsonSchema): fc.Arbitrary<string> {
  const values = schema.enum as string[] | undefined;
  if (values) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...values) }, anyText);
  const matching = patternText(schema.pattern as string | undefined);
  const plain = fc.string({
    minLength: (schema.minLength as number | undefined) ?? 0,
    maxLength: Math.min((schema.maxLength as number | undefined) ?? 30, 30),
  });
  // A date format's pattern alone gives any year (0000–9999), nearly all of them refused.
  const date = { "date-time": instant.map((at) => at.toISOString()), date: day }[
    String(schema.format)
  ];
  return fc.oneof(
    { weight: 3, arbitrary: matching ?? plain },
    ...(date ? [{ weight: 3, arbitrary: date }] : []),
    { weight: 1, arbitrary: fc.emailAddress() },
    { weight: 2, arbitrary: anyText },
  );
}

function idFor(context: FuzzContext): fc.Arbitrary<number> {
  return fc.integer({ min: 1, max: 60 }).filter((id) => !context.avoidIds.includes(id));
}

function integerFor(schema: JsonSchema, context: FuzzContext): fc.Arbitrary<number> {
  const values = schema.enum as number[] | undefined;
  return fc.oneof(
    { weight: 3, arbitrary: values ? fc.constantFrom(...values) : idFor(context) },
    fc.constantFrom(0, -1, 2 ** 31, 2 ** 31 - 1, 2 ** 53 + 2, 1.5, 1e300),
    fc.integer(),
  );
}

/** A JSON value for `schema`: mostly of the right shape, sometimes wrong in one place. */
export function valueFor(
  schema: JsonSchema,
  context: FuzzContext,
  depth = 0,
): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    anyText,
    fc.constant([]),
    fc.constant({}),
  );
  const right = ((): fc.Arbitrary<unknown> => {
    const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (variants) return fc.oneof(...variants.map((variant) => valueFor(variant, context, depth)));
    switch (schema.type) {
      case "string":
        return textFor(schema);
      case "integer":
      case "number":
        return integerFor(schema, context);
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(valueFor((schema.items as JsonSchema) ?? {}, context, depth + 1), {
          maxLength: 6,
        });
      case "object":
        return objectFor(schema, context, depth + 1);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  if (depth > 3) return right;
  const nullable = schema.nullable === true ? [fc.constant(null)] : [];
  return fc.oneof({ weight: 8, arbitrary: right }, { weight: 1, arbitrary: wrong }, ...nullable);
}

function objectFor(schema: JsonSchema, context: FuzzContext, depth: number) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const entries = Object.entries(properties).map(([key, property]) =>
    fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), valueFor(property, context, depth))
      .map(([dice, value]) => (dice < (required.has(key) ? 0.92 : 0.6) ? [[key, value]] : [])),
  );
  const unknown = fc.oneof(
    { weight: 9, arbitrary: fc.constant([]) },
    fc
      .tuple(
        fc.constantFrom("extra", "__proto__", "constructor", "isSuperAdmin", "id"),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map((pair) => [pair]),
  );
  return fc
    .tuple(fc.tuple(...entries), unknown)
    .map(([pairs, extra]) => Object.fromEntries([...pairs.flat(), ...extra]));
}

const ajv = new Ajv({ strict: false, validateFormats: false, unicodeRegExp: true });
const validators = new WeakMap<object, ValidateFunction>();
function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(forAjv(schema) as JsonSchema);
    validators.set(schema, validate);
  }
  return validate;
}

const judge = (schema: JsonSchema, value: unknown): Generated<unknown> => {
  const validate = validatorOf(schema);
  if (validate(value)) return { value, verdict: "either" };
  return { value, verdict: "invalid", why: ajv.errorsText(validate.errors) };
};

/** Query or path parameters as one object schema (unknown parameters are not allowed). */
function parametersSchema(parameters: Parameter[]): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}

function parametersFor(parameters: Parameter[], context: FuzzContext, allowUnknown: boolean) {
  const entries = parameters.map((parameter) =>
    fc
      .tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        parameter.name === "id"
          ? fc.oneof(
              { weight: 4, arbitrary: idFor(context).map(String) },
              textFor(parameter.schema),
            )
          : textFor(parameter.schema),
      )
      .map(([dice, value]) =>
        dice < (parameter.required ? 0.92 : 0.5) ? [[parameter.name, value] as const] : [],
      ),
  );
  const unknown = allowUnknown
    ? fc.oneof(
        { weight: 9, arbitrary: fc.constant([]) },
        fc.tuple(fc.stringMatching(/^[a-z_]{1,10}$/), anyText).map((pair) => [pair]),
      )
    : fc.constant([]);
  return fc
    .tuple(fc.tuple(...entries), unknown)
    .map(
      ([pairs, extra]) => Object.fromEntries([...pairs.flat(), ...extra]) as Record<string, string>,
    );
}

/* ---------- aggregation lists ---------- */

interface AggregationSpec {
  filterable: Record<string, { type: string; values?: string[] }>;
  sortable: string[];
  searchable: string[];
  maxPageSize: number;
  maxPage: number;
}

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const json = (value: unknown) => JSON.stringify(value);
const valid = <T>(value: T): Generated<T> => ({ value, verdict: "valid" });
const invalid =
  <T>(why: string) =>
  (value: T): Generated<T> => ({ value, verdict: "invalid", why });

/** A field's kind in `x-aggregation` is the declaration's filter kind (FilterKind). */
function conditionFor(field: { type: string; values?: string[] }): fc.Arbitrary<unknown> {
  switch (field.type) {
    case "choice": {
      const value = field.values ? fc.constantFrom(...field.values) : word;
      return fc.oneof(
        value,
        value.map(($ne) => ({ $ne })),
        fc.array(value, { minLength: 1, maxLength: 3 }).map(($in) => ({ $in })),
      );
    }
    case "boolean":
      return fc.boolean();
    case "numberRange":
    case "record":
      return fc.oneof(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000 }).map(($gt) => ({ $gt })),
      );
    case "dateRange":
      return fc.oneof(
        day.map(($gte) => ({ $gte })),
        day.map(($lt) => ({ $lt })),
      );
    default:
      return fc.oneof(
        word,
        word.map(($contains) => ({ $contains })),
        word.map(($startsWith) => ({ $startsWith })),
      );
  }
}

/** A value the field's type cannot take. */
function wrongFor(field: { type: string }): fc.Arbitrary<unknown> {
  switch (field.type) {
    case "boolean":
      return fc.constantFrom("yes", 2, { $contains: "t" });
    case "numberRange":
    case "record":
      return fc.constantFrom("abc", true, { $gt: "x" }, { $contains: "1" });
    case "dateRange":
      return fc.oneof(
        fc.constantFrom({ $gte: "not-a-date" }, { $lt: "2024-13-45" }, { $gt: true }),
        fc
          .constantFrom(...FAR_DATES)
          .chain((far) => fc.constantFrom(far, { $gte: far }, { $lt: far }, { $in: [far] })),
      );
    case "choice":
      return fc.constantFrom("zz-not-a-value", { $in: [] }, { $gt: 5 });
    default:
      return fc.oneof(
        fc.constantFrom({ $gt: [] }, { $regex: "a" }, { $in: "x" }, { $contains: 5 }),
        // A blank text value: refused, never read as "every row".
        fc
          .constantFrom("", " ", "\u3000")
          .chain((blank) =>
            fc.constantFrom(
              blank,
              { $contains: blank },
              { $startsWith: blank },
              { $ne: blank },
              { $in: ["a", blank] },
            ),
          ),
      );
  }
}

function filterFor(spec: AggregationSpec): fc.Arbitrary<Generated<string>> {
  const fields = Object.entries(spec.filterable);
  const conditions = fields.map(([key, field]) =>
    conditionFor(field).map((value) => [key, value] as const),
  );
  const validObject = fc.oneof(
    fc.constant({}),
    fc
      .array(fc.oneof(...conditions), { minLength: 1, maxLength: 3 })
      .map((pairs) => Object.fromEntries(pairs)),
    fc.array(fc.oneof(...conditions), { minLength: 2, maxLength: 2 }).map((pairs) => ({
      $or: pairs.map((pair) => Object.fromEntries([pair])),
    })),
    // A list without searchable fields refuses `$search` (below), one with them takes it; a
    // blank one is no search.
    ...(spec.searchable.length > 0
      ? [fc.oneof(word, fc.constantFrom("", " ")).map(($search) => ({ $search }))]
      : []),
  );
  const wrongs = fields.map(([key, field]) => wrongFor(field).map((value) => ({ [key]: value })));
  if (spec.searchable.length === 0) wrongs.push(word.map(($search) => ({ $search })));
  return fc.oneof(
    { weight: 5, arbitrary: validObject.map((value) => valid(json(value))) },
    fc
      .constantFrom({ noSuchField: 1 }, { $where: "1" }, { $or: {} }, { $search: 5 })
      .map((value) => invalid<string>("bad filter")(json(value))),
    fc.oneof(...wrongs).map((value) => invalid<string>("wrong type")(json(value))),
  );
}

function sortFor(spec: AggregationSpec): fc.Arbitrary<Generated<string>> {
  const unsortable = [
    ...Object.keys(spec.filterable).filter((key) => !spec.sortable.includes(key)),
    "noSuchField",
  ];
  const keys = spec.sortable.length > 0 ? fc.constantFrom(...spec.sortable) : fc.constant("");
  const validSort = fc
    .uniqueArray(fc.tuple(keys, fc.constantFrom(1, -1)), { selector: ([key]) => key, maxLength: 3 })
    .map((pairs) => Object.fromEntries(pairs.filter(([key]) => key !== "")));
  return fc.oneof(
    { weight: 4, arbitrary: validSort.map((value) => valid(json(value))) },
    fc
      .constantFrom(...unsortable)
      .map((key) => invalid<string>("not sortable")(json({ [key]: 1 }))),
    fc
      .tuple(keys, fc.constantFrom(0, 2, "1", "asc", true, null, 1.5, []))
      .filter(([key]) => key !== "")
      .map(([key, direction]) => invalid<string>("bad direction")(json({ [key]: direction }))),
  );
}

function paginationFor(spec: AggregationSpec): fc.Arbitrary<Generated<string>> {
  const page = fc.integer({ min: 1, max: 5 });
  const size = fc.integer({ min: 1, max: spec.maxPageSize });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({ page, pageSize: size }, { requiredKeys: [] })
        .map((value) => valid(json(value))),
    },
    fc
      .constantFrom(
        { page: 0 },
        { page: -1 },
        { page: 1.5 },
        { page: "1" },
        { page: null },
        { page: spec.maxPage + 1 },
        { pageSize: 0 },
        { pageSize: spec.maxPageSize + 1 },
        { pageSize: "10" },
        { page: 1, limit: 10 },
        [1, 10],
        5,
      )
      .map((value) => invalid<string>("bad pagination")(json(value))),
  );
}

/** Text that is not a JSON object at all, or breaks the strict reader's rules. */
const malformed = fc
  .constantFrom(
    "",
    " ",
    "\u00a0",
    "\ufeff",
    "\u3000",
    "{",
    "{'a':1}",
    "NaN",
    "undefined",
    '{"a":1,"a":2}',
    "null",
    "[]",
    '"x"',
  )
  .map((text) => invalid<string>("malformed JSON")(text));
const raw = fc
  .oneof(fc.string({ maxLength: 30 }), fc.json({ maxDepth: 2 }))
  .map((text): Generated<string> => ({
    value: text,
    verdict: "either",
    why: "arbitrary text",
  }));

function parameter(
  arbitrary: fc.Arbitrary<Generated<string>>,
): fc.Arbitrary<Generated<string | undefined>> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(valid(undefined)) },
    { weight: 6, arbitrary },
    { weight: 1, arbitrary: malformed },
    { weight: 1, arbitrary: raw },
  );
}

function aggregationCase(operation: Operation, spec: AggregationSpec): fc.Arbitrary<FuzzCase> {
  const unknownParameter = fc.oneof(
    { weight: 12, arbitrary: fc.constant(valid<[string, string][]>([])) },
    fc
      .tuple(
        fc
          .stringMatching(/^[a-z]{1,8}$/)
          .filter((name) => !["filter", "sort", "pagination"].includes(name)),
        word,
      )
      .map((pair) => invalid<[string, string][]>("unknown parameter")([pair])),
    fc.constantFrom("filter", "sort", "pagination").map((name) =>
      invalid<[string, string][]>("repeated parameter")([
        [name, "{}"],
        [name, "{}"],
      ]),
    ),
  );
  return fc
    .tuple(
      parameter(filterFor(spec)),
      parameter(sortFor(spec)),
      parameter(paginationFor(spec)),
      unknownParameter,
    )
    .map(([filter, sort, pagination, extra]) => {
      const search = new URLSearchParams();
      if (filter.value !== undefined) search.append("filter", filter.value);
      if (sort.value !== undefined) search.append("sort", sort.value);
      if (pagination.value !== undefined) search.append("pagination", pagination.value);
      for (const [name, value] of extra.value) search.append(name, value);
      const parts = [filter, sort, pagination, extra];
      return {
        operation,
        method: operation.method,
        url: `${urlOf(operation)}?${search.toString()}`,
        verdict: worst(parts.map((part) => part.verdict)),
        why: parts.flatMap((part) => (part.why ? [part.why] : [])).join("; "),
        aggregation: true,
      };
    });
}

/* ---------- every other operation ---------- */

function genericCase(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const query = operation.parameters.filter((p) => p.in === "query");
  const path = operation.parameters.filter((p) => p.in === "path");
  const jsonBody = operation.body?.["application/json"];
  const body: fc.Arbitrary<Generated<unknown> | undefined> = jsonBody
    ? fc.oneof(
        {
          weight: 12,
          arbitrary: valueFor(jsonBody, context).map((value) => judge(jsonBody, value)),
        },
        fc.jsonValue({ maxDepth: 2 }).map((value) => judge(jsonBody, value)),
      )
    : operation.body
      ? // A multipart-only operation refuses JSON.
        fc.constant({
          value: {},
          verdict: "invalid" as const,
          why: "JSON to a multipart operation",
        })
      : fc.constant(undefined);
  return (
    fc
      .tuple(parametersFor(query, context, true), parametersFor(path, context, false), body)
      // A path segment must be present and encodable (a lone surrogate has no UTF-8 form).
      .filter(([, pathValues]) => path.every((p) => encodable(pathValues[p.name])))
      .map(([queryValues, pathValues, payload]) => {
        const judged = [
          judge(parametersSchema(query), queryValues),
          judge(parametersSchema(path), pathValues),
          ...(payload ? [payload] : []),
        ];
        const search = new URLSearchParams(queryValues).toString();
        return {
          operation,
          method: operation.method,
          url: urlOf(operation, (name) => pathValues[name] ?? "1") + (search ? `?${search}` : ""),
          body: payload === undefined ? undefined : JSON.stringify(payload.value),
          verdict: worst(judged.map((part) => part.verdict)),
          why: judged.flatMap((part) => (part.why ? [part.why] : [])).join("; "),
          aggregation: false,
        };
      })
  );
}

function encodable(text: string | undefined): boolean {
  if (!text) return false;
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The cases of one operation. */
export function casesOf(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const spec = operation.aggregation as AggregationSpec | undefined;
  return spec ? aggregationCase(operation, spec) : genericCase(operation, context);
}

/** How input is refused: 400, or 413, 414, 415 for a body, a path or a media type out of bounds. */
const REFUSALS = [400, 413, 414, 415];

/** What the answer to `fuzzCase` must be; undefined when it is right. */
export function verdictProblem(
  fuzzCase: FuzzCase,
  status: number,
  body: string,
): string | undefined {
  if (status >= 500) return "never a 5xx";
  // A rate limit may answer first where the document says the operation is rate-limited.
  if (status === 429 && fuzzCase.operation.statuses.includes(429)) return undefined;
  if (!fuzzCase.operation.statuses.includes(status) && status !== 200 && status !== 201) {
    return `a status the document lists (${fuzzCase.operation.statuses.join(", ")})`;
  }
  if (fuzzCase.verdict === "invalid") {
    if (fuzzCase.aggregation && (status !== 400 || !body.includes('"INVALID_QUERY"'))) {
      return `400 INVALID_QUERY (${fuzzCase.why})`;
    }
    if (!REFUSALS.includes(status)) return `a refusal, ${REFUSALS.join(" or ")} (${fuzzCase.why})`;
  }
  if (fuzzCase.verdict === "valid" && status !== 200) return "200 (a valid query)";
  if (fuzzCase.aggregation && status === 400 && !body.includes('"INVALID_QUERY"'))
    return "400 INVALID_QUERY";
  return undefined;
}

/**
 * Runs `runsPerOperation` generated cases against every operation (sampled with `seed`, so a
 * failure can be replayed), as the holder of `token` (a console token; `walletToken` on the wallet
 * app's routes), and collects what went wrong.
 */
export async function runFuzz(options: {
  app: App;
  token: string;
  walletToken?: string;
  operations: Operation[];
  runsPerOperation: (operation: Operation) => number;
  seed: number;
  context: FuzzContext;
}): Promise<FuzzResult> {
  const result: FuzzResult = { cases: 0, failures: [], statuses: {} };
  let address = 0;
  for (const [index, operation] of options.operations.entries()) {
    const numRuns = options.runsPerOperation(operation);
    if (numRuns === 0) continue;
    const seed = options.seed + index;
    const cases = fc.sample(casesOf(operation, options.context), { numRuns, seed });
    for (const fuzzCase of cases) {
      address += 1;
      const response = await options.app.inject({
        method: fuzzCase.method,
        url: fuzzCase.url,
        headers: {
          authorization:
            operation.access === "wallet" && options.walletToken
              ? `Bearer ${options.walletToken}`
              : options.token,
          ...(fuzzCase.body !== undefined ? { "content-type": "application/json" } : {}),
        },
        // A client address per case, so the per-address rate limits do not answer for the input.
        remoteAddress: `10.9.${(address >> 8) & 255}.${address & 255}`,
        ...(fuzzCase.body !== undefined ? { payload: fuzzCase.body } : {}),
      });
      result.cases += 1;
      result.statuses[response.statusCode] = (result.statuses[response.statusCode] ?? 0) + 1;
      const problem = verdictProblem(fuzzCase, response.statusCode, response.body);
      if (problem) {
        result.failures.push({
          request: `${fuzzCase.method} ${fuzzCase.url}${fuzzCase.body !== undefined ? ` ${fuzzCase.body.slice(0, 300)}` : ""}`,
          status: response.statusCode,
          expected: problem,
          answer: response.body.slice(0, 300),
        });
      }
    }
  }
  return result;
}

export const describeFailure = (failure: FuzzFailure) =>
  `${failure.request}\n  answered ${failure.status} ${failure.answer}\n  expected ${failure.expected}`;

export { describeOperation };
