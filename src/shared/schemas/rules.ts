import { z } from "zod";

/**
 * Rules of an input that its fields' own schemas do not carry, written once: each helper adds
 * the check (a refinement) AND its statement in the OpenAPI document, on the same schema.
 *
 * - What JSON Schema can say is said in it, through the schema's zod metadata: at least one key
 *   (`minProperties`), items once each (`uniqueItems`), a field required or restricted by another
 *   field's value (an `anyOf` of the cases that satisfy it, under `allOf`, since OpenAPI 3.0 has
 *   no if/then).
 * - What it cannot say (an order between fields, a date after another, a form that depends on
 *   another field, text the server reads as a number or a URL) is a statement,
 *   `{fields, rule}`, kept in the schema's metadata under `x-cross-field-rules`.
 *   server/http/openapi.ts gathers the statements of a route's body and query schemas into the
 *   operation's description ("Also checked (beyond the schema)") and its `x-cross-field-rules`.
 */

/** A rule JSON Schema cannot state, for the document: the fields it compares, in words. */
export interface RuleStatement {
  /** The body's or query's top-level fields the rule reads; the first is where it reports. */
  fields: string[];
  rule: string;
}

/** The metadata key (and the document's extension) holding a schema's statements. */
export const RULE_STATEMENTS_KEY = "x-cross-field-rules";

type Refinement<T extends z.ZodType> = (
  value: z.output<T>,
  context: z.RefinementCtx<z.output<T>>,
) => void;

/** The statements already on `schema` (a schema may carry several rules). */
export function ruleStatementsOf(schema: z.ZodType): RuleStatement[] {
  const stated = z.globalRegistry.get(schema)?.[RULE_STATEMENTS_KEY];
  return Array.isArray(stated) ? (stated as RuleStatement[]) : [];
}

/**
 * A rule JSON Schema cannot state: `check` is the refinement, `statement` what the document
 * says of it. Without `check`, the schema states a rule its own transform applies (a number
 * written as text) or, where noted, the route that reads it.
 */
export function crossFieldRule<T extends z.ZodType>(
  schema: T,
  statement: RuleStatement,
  check?: Refinement<T>,
): T {
  const checked = check ? schema.superRefine(check) : schema;
  return checked.meta({ [RULE_STATEMENTS_KEY]: [...ruleStatementsOf(schema), statement] });
}

/** A change of some fields: at least one of them (`minProperties: 1`). */
export function atLeastOneField<T extends z.ZodObject>(schema: T, message: string): T {
  return schema
    .refine((value) => Object.keys(value as object).length > 0, message)
    .meta({ minProperties: 1 });
}

/** A list whose items appear once each (`uniqueItems: true`). */
export function distinctItems<T extends z.ZodArray>(schema: T, message: string): T {
  return schema
    .refine((list) => new Set(list as unknown[]).size === (list as unknown[]).length, message)
    .meta({ uniqueItems: true });
}

/**
 * A rule between fields that JSON Schema states as alternatives, one of which every accepted
 * input satisfies (`{"properties": {"ban": {"enum": [false]}}}` or `{"required": ["remark"]}`:
 * "remark is required when ban is true"). The alternatives go under `allOf` so that the object
 * keeps one shape for readers that take an object's own `anyOf` as its variants. `check` is the
 * refinement; the two must say the same (the OpenAPI tests send what the alternatives allow).
 */
export function alternativesRule<T extends z.ZodObject>(
  schema: T,
  alternatives: Array<Record<string, unknown>>,
  check: Refinement<T>,
): T {
  const stated = z.globalRegistry.get(schema)?.allOf;
  return schema
    .superRefine(check)
    .meta({ allOf: [...(Array.isArray(stated) ? stated : []), { anyOf: alternatives }] });
}
