/**
 * The module kit: a back-office module is declared once, here in shared code (plain TypeScript +
 * zod, no React, no Drizzle), and drawn by two readers: the server binds it to a table and
 * registers its routes (server/kit), the console turns it into a Refine resource and its screens
 * (src/app/kit). See docs/module-kit.md and the README's "How to add a back-office module".
 */
import { z } from "zod";

import { isPermissionCode, type PermissionCode } from "../permissions";
import type { FourEyesDecl } from "./four-eyes";
import { DECLARED } from "./registry";
import { VERSION_FIELD, versionSchema } from "./versions";
import { safeMultilineText, safeText, textProblem } from "../text";

/** How a list filters by a field; each kind fits only some zod types (see filterKindsOf). */
export type FilterKind = "text" | "choice" | "boolean" | "dateRange" | "numberRange" | "record";

/** Semantic tag colours; the console maps each to a tint with readable contrast. */
export type TagColour =
  "gold" | "green" | "red" | "grey" | "blue" | "cyan" | "purple" | "orange" | "magenta";

/** How a value is shown in lists, detail pages and CSV. */
export type Display =
  | { kind: "text"; strong?: boolean }
  | { kind: "date" }
  | { kind: "dateTime" }
  | { kind: "money" }
  /** A rate in basis points (fees, commissions) as a percentage. */
  | { kind: "basisPoints" }
  | { kind: "yesNo" }
  /** A whole number of things (payments), with thousands grouped: 31,206. */
  | { kind: "count" }
  | { kind: "tag"; colours: Readonly<Record<string, TagColour>> }
  /**
   * A link to a record's detail page: `idField` of this row holds that record's id; `self` is
   * this module's own detail page, or a view's, the page of the module it views.
   */
  | { kind: "link"; to: LinkTo; idField: string }
  /**
   * Proposed changes to a record of another module, `[{field, from, to}]` (see changeList): each
   * labelled and shown in that module's terms ("Category: Café → Canteen").
   */
  | { kind: "changes"; of: LinkedModule }
  /**
   * Changes of a record of the module this row names in `ofField` (an audit entry's module), in
   * that module's terms; a row naming none shows each field by its key and its values as they are
   * (see jsonChangeList).
   */
  | { kind: "changes"; ofField: string };

/**
 * Where a link leads: `self`, another module (its declaration, or its name when the declaration
 * cannot import it), or `{ field }`: the module this row names in that field (an audit entry's),
 * plain text when the row names none or that module has no detail page.
 */
export type LinkTo = "users" | "administrators" | "self" | LinkedModule | { field: string };

/** Another module a field links to or speaks of (its declaration). */
export type LinkedModule = Pick<ModuleDecl, "name" | "i18n" | "fields" | "paths" | "viewOf">;

/** The type of a `changes` field: what a request would change, field by field. */
export const changeList = z.array(
  z.object({ field: z.string(), from: z.string().nullable(), to: z.string() }),
);
export type ChangeList = z.infer<typeof changeList>;

/** Changes between two snapshots (an audit entry's before and after), each value any JSON. */
export const jsonChangeList = z.array(
  z.object({ field: z.string(), from: z.unknown(), to: z.unknown() }),
);
export type JsonChangeList = z.infer<typeof jsonChangeList>;

export interface FieldOptions {
  /** A column of the list (with its width in px). */
  list?: boolean | { width: number };
  /** A line of the detail page. */
  show?: boolean;
  /**
   * A filter of the list, and its kind. `record`: the id of a record of another table (a
   * business), chosen by name from `GET /api/{collection}/options/{field}`, which the server
   * binds to that table and answers under the module's own permission.
   */
  filter?: FilterKind;
  /**
   * Whether the console draws a control for the filter (default: for listed fields, except text
   * the search box covers). Other filters still work from a URL or a link.
   */
  control?: boolean;
  sort?: boolean;
  /** Matched by the list's search box (`$search`). */
  search?: boolean;
  /** A column of the CSV export. */
  export?: boolean;
  display?: Display;
  /** The key (in the module's words) shown for no value, when not the kit's "none": `never`. */
  empty?: string;
  /**
   * Not part of the record: a condition the list can filter by (e.g. a joined table's status),
   * with a column the server binds. It is never selected, shown or exported.
   */
  filterOnly?: boolean;
}

export interface FieldDecl<T extends z.ZodType = z.ZodType> extends FieldOptions {
  schema: T;
}

/** Zod types a filter kind can carry (checked by the type checker and again at start-up). */
type Unwrapped<T> =
  T extends z.ZodNullable<infer I>
    ? Unwrapped<I>
    : T extends z.ZodOptional<infer I>
      ? Unwrapped<I>
      : T;
type KindsFor<T> = T extends z.ZodEnum
  ? "choice"
  : T extends z.ZodBoolean
    ? "boolean"
    : T extends z.ZodNumber
      ? "numberRange" | "record"
      : T extends z.ZodISODateTime | z.ZodISODate
        ? "dateRange"
        : T extends z.ZodString
          ? "text"
          : never;

/** One field: its zod type and what it is for. A filter its type cannot carry does not compile. */
export function field<
  T extends z.ZodType,
  const O extends Omit<FieldOptions, "filter"> & { filter?: KindsFor<Unwrapped<T>> } = Record<
    never,
    never
  >,
>(schema: T, options?: O): FieldDecl<T> & O {
  return { schema, ...(options ?? ({} as O)) };
}

/** The filter kinds a zod type can carry, read at run time (for start-up checks and tests). */
export function filterKindsOf(schema: z.ZodType): FilterKind[] {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) {
    inner = inner.unwrap() as z.ZodType;
  }
  if (inner instanceof z.ZodEnum) return ["choice"];
  if (inner instanceof z.ZodBoolean) return ["boolean"];
  if (inner instanceof z.ZodNumber) return ["numberRange", "record"];
  if (inner instanceof z.ZodISODateTime || inner instanceof z.ZodISODate) return ["dateRange"];
  if (inner instanceof z.ZodString) return ["text"];
  return [];
}

/** The values of an enum field (unwrapping null), or undefined for other types. */
export function enumValuesOf(schema: z.ZodType): readonly string[] | undefined {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner instanceof z.ZodEnum ? (inner.options as string[]) : undefined;
}

/** A named state change on one record (approve, reject, reverse, suspend, mark paid …). */
export interface ActionDecl<Body extends z.ZodType = z.ZodType> {
  /**
   * `decision`: approve or reject with a remark (`{action, remark}`), one dialog for both.
   * `remark`: one verb with a required remark (`{remark}`): reverse, suspend, reinstate …
   * `form`: one verb whose body is a zod object drawn as a form (a URL, an agent's terms).
   * `confirm`: no input but a confirmation, or an optional remark (`optionalRemark`); with
   * `choice`, the body names which of its verbs it is (ban or unban, VIP on or off).
   */
  kind: "decision" | "remark" | "form" | "confirm";
  /**
   * The one text staff type for it, sent under `name`: the remark (1–500 characters, several
   * lines) unless the action asks for something else (a bank reference for "mark paid").
   */
  input: ActionInput;
  /** The verbs staff choose from (a decision: approve and reject; a remark action: its one). */
  verbs: readonly string[];
  /** Each verb's past tense, the key of its toasts (`decision.<done>`): approve → approved. */
  done: Readonly<Record<string, string>>;
  /** Sent as `<method> /api/{collection}/{id}` + `/{path}` when a path is given. */
  method: "PATCH" | "POST";
  path?: string;
  body: Body;
  /** The records it applies to: field → allowed values; others answer 409 `conflictCode`. */
  when: Readonly<Record<string, readonly string[]>>;
  /** The 409 code when a record is outside `when` (e.g. someone decided first). */
  conflictCode: string;
  /** May run on several selected rows, each reported. */
  bulk: boolean;
  /** Drawn as a destructive button (a reversal, a suspension). */
  danger: boolean;
  /** Its own permission code, when it is not the module's. */
  permission?: PermissionCode;
  /** Its name in refusals ("no permission to access PATCH User Ban"), when not the module's. */
  thing?: string;
  /** Audit entries are `<audit>.<verb>` (e.g. `change_contact.approve`), or see `oneAuditName`. */
  audit: string;
  /** Every verb's audit entry is `audit` itself (`rider.verify` for approve and reject). */
  oneAuditName?: boolean;
  /**
   * Several verbs at one route, the body naming which (`{ban: true}` bans, `{ban: false}`
   * unbans): the body key and each verb's value there. A decision's is `action`.
   */
  choice?: ActionChoice;
  /** Per verb, the records it applies to, beside `when` (ban: not banned; unban: banned). */
  whenOf?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** Per verb, the 409 message when a record is outside its guard ("already banned"). */
  refusal?: Readonly<Record<string, string>>;
  /** `form`: inputs drawn differently from their type (see InputHint). */
  inputs?: Readonly<Record<string, InputHint>>;
  /** `confirm`: the dialog asks for a remark, optional (sent only when typed). */
  optionalRemark?: boolean;
  /** Per verb, whether the remark is required after all (ban needs one, unban does not). */
  remarkRequired?: Readonly<Record<string, boolean>>;
  /** A change that leaves the record as it was writes no audit entry (a URL saved again). */
  quietWhenUnchanged?: boolean;
  /** Other method + path pairs the action answers at, with their own bodies and answers. */
  aliases?: readonly ActionAlias[];
  /**
   * The record the action changes when it is not the module's own but one of another table that
   * belongs to it (a user's rider facts): its name in 404s and its fields, which the guard may
   * name (read over the module's record) and the audit entry keeps before and after. A row
   * offers the action only when it carries them (the rider section's, not the users list's).
   */
  of?: ActionOf;
  /**
   * What it answers when its work lies outside the record (a password reset link e-mailed): the
   * status and body its effect answers after the change commits, instead of the record, and the
   * failures that effect may add (502 when the mail could not be sent).
   */
  answer?: ActionAnswer;
  /** Offered on list rows too (default); false: only on the record's own page. */
  listed?: boolean;
  /**
   * Drawn by the module's own page, which takes the rest from the declaration (a report's
   * resolution: a refund only for a transaction dispute, at most what remains of it). The kit's
   * buttons (a record's page, a list's rows) leave it out; its route, OpenAPI, guard, audit and
   * four eyes are the kit's as for any action.
   */
  ownDialog?: true;
  /**
   * Offered only when the record's `field` holds (`self`) or does not hold (`other`) the signed-in
   * administrator's id: a change request is approved by another, withdrawn by its maker. The
   * console's convenience; the server's handler refuses the others.
   */
  offeredTo?: { field: string; is: "self" | "other" };
  /**
   * Needs a second approver: the server makes a change request instead of applying it (every
   * time, or above the wallet policy's threshold), and another administrator approves it.
   */
  fourEyes?: FourEyesDecl;
  /**
   * Sensitive (money moved, power given, a factor reset): the server asks for a fresh proof of
   * who the administrator is (a second factor within STEP_UP_MINUTES, 403 STEP_UP_REQUIRED
   * otherwise) before it runs or holds the change; the console asks for it in place and sends
   * the same request again.
   */
  stepUp?: true;
}

export interface ActionAnswer {
  status: 200 | 202;
  response: z.ZodType;
  failures?: readonly 502[];
}

export interface ActionOf {
  thing: string;
  fields: readonly string[];
}

/** Which verb a body asks for: the value of its `field` (see ActionDecl.choice). */
export interface ActionChoice {
  field: string;
  values: Readonly<Record<string, string | boolean>>;
}

/**
 * A legacy call that runs a declared action (the seed's `/user-mgmt/ban-user`): the record named
 * by one of its fields in the body (an account number), the action's body made from its body,
 * and the answer made from the changed record. Same guard, handler, audit and permission.
 */
export interface ActionAlias {
  method: "POST" | "PATCH";
  /** The full path, without the API prefix (`/user-mgmt/ban-user`). */
  url: string;
  summary: string;
  /** Its OpenAPI tag, when not the module's; its name in refusals ("Ban User"). */
  tag?: string;
  thing: string;
  body: z.ZodType;
  /** The record: the body key holding the value and the record's field it is matched on. */
  key: { from: string; field: string };
  toBody: (body: Record<string, unknown>) => unknown;
  /**
   * The answer made from the changed record, and its schema; without them, the server's binding
   * of the action answers (a user's whole detail, read after the change), or else the record.
   */
  response?: z.ZodType;
  answer?: (item: Record<string, unknown>) => unknown;
}

/** The audit entry's action name of the verb a body asks for. */
export const auditNameOf = (action: ActionDecl, body: unknown) =>
  action.oneAuditName ? action.audit : `${action.audit}.${verbOfBody(action, body)}`;

/** The verb a body asks for: a decision's `action`, a choice's value, else the one verb. */
export function verbOfBody(action: ActionDecl, body: unknown): string {
  const values = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  if (action.kind === "decision") return String(values.action);
  if (action.choice) {
    const { field, values: byVerb } = action.choice;
    const found = Object.entries(byVerb).find(([, value]) => value === values[field]);
    if (found) return found[0];
  }
  return action.verbs[0]!;
}

/** The guard of one verb: the action's `when` and the verb's own. */
export const guardOf = (action: ActionDecl, verb: string) => ({
  ...action.when,
  ...action.whenOf?.[verb],
});

/** The text an action asks for: its body's key, its length limit after trimming, its lines. */
export interface ActionInput {
  name: string;
  max: number;
  multiline: boolean;
}

export const DECISIONS = ["approve", "reject"] as const;
export type Decision = (typeof DECISIONS)[number];

/** Remarks on decisions, bans and contact changes: characters after trimming. */
export const REMARK_MAX_LENGTH = 500;

/** The remark every decision and remark action asks for. */
export const REMARK_INPUT: ActionInput = {
  name: "remark",
  max: REMARK_MAX_LENGTH,
  multiline: true,
};

/**
 * What is wrong with an action's text as staff typed it (a remark unless told), or undefined:
 * the rule its body's schema (inputSchema) applies on the server.
 */
export function remarkProblem(
  remark: string | undefined,
  input: ActionInput = REMARK_INPUT,
): "required" | "tooLong" | "invalid" | undefined {
  const length = (remark ?? "").trim().length;
  if (length === 0) return "required";
  if (length > input.max) return "tooLong";
  // The server's text rule (src/shared/text.ts): control, bidi or only invisible characters.
  if (textProblem(remark ?? "", { multiline: input.multiline })) return "invalid";
  return undefined;
}

export const REMARK_MESSAGES = {
  required: "Remark is required",
  tooLong: `Remark must be at most ${REMARK_MAX_LENGTH} characters`,
} as const;

/** A remark as staff type it: trimmed, 1–500 characters (remarkProblem). */
export const remarkSchema = safeMultilineText()
  .trim()
  .min(1, REMARK_MESSAGES.required)
  .max(REMARK_MAX_LENGTH, REMARK_MESSAGES.tooLong);

/** approve or reject, with the remark the user is told (required for both). */
export const decisionBodySchema = z
  .strictObject({ action: z.enum(DECISIONS), remark: remarkSchema })
  .meta({ id: "DecisionBody" });
export type DecisionBody = z.infer<typeof decisionBodySchema>;

/** The body of a remark action: why staff did it. */
export const remarkBodySchema = z.strictObject({ remark: remarkSchema }).meta({ id: "RemarkBody" });
export type RemarkBody = z.infer<typeof remarkBodySchema>;

interface ActionOptions {
  path?: string;
  thing?: string;
  when: Readonly<Record<string, readonly string[]>>;
  bulk?: boolean;
  audit: string;
  conflictCode?: string;
  permission?: PermissionCode;
  /** Needs a second approver (see ActionDecl.fourEyes). */
  fourEyes?: FourEyesDecl;
  /** Needs a fresh proof of who the administrator is (see ActionDecl.stepUp). */
  stepUp?: true;
  offeredTo?: ActionDecl["offeredTo"];
}

/** The one approve / reject-with-remark action every deciding module shares. */
export function decision(options: ActionOptions): ActionDecl<typeof decisionBodySchema> {
  return {
    kind: "decision",
    input: REMARK_INPUT,
    verbs: DECISIONS,
    done: { approve: "approved", reject: "rejected" },
    method: "PATCH",
    body: decisionBodySchema,
    bulk: options.bulk ?? false,
    danger: false,
    conflictCode: options.conflictCode ?? "ALREADY_DECIDED",
    ...options,
  };
}

type OneVerb = ActionOptions & {
  verb: string;
  /** Its past tense (reverse → reversed). */
  done: string;
  method?: "PATCH" | "POST";
  danger?: boolean;
  conflictCode: string;
};

function oneVerb<Body extends z.ZodType>(
  options: OneVerb,
  input: ActionInput,
  body: Body,
  kind: ActionDecl["kind"] = "remark",
): ActionDecl<Body> {
  const { verb, done, ...rest } = options;
  return {
    kind,
    input,
    verbs: [verb],
    done: { [verb]: done },
    method: options.method ?? "POST",
    path: options.path ?? verb,
    body,
    bulk: options.bulk ?? false,
    danger: options.danger ?? false,
    ...rest,
  };
}

/** The body of an action that asks for nothing but a confirmation: none, or `{}`. */
export const noBodySchema = z.strictObject({}).nullish();

/**
 * One verb that asks only for a confirmation and whose work lies outside the record (e-mailing a
 * password reset link): `POST /api/{collection}/{id}/{path}` with no body, answered with
 * `answer` once the change is committed and its effect done. Offered on the record's page only.
 */
export function effectAction(
  options: OneVerb & { answer: ActionAnswer; aliases?: readonly ActionAlias[] },
): ActionDecl<typeof noBodySchema> {
  return { listed: false, ...oneVerb(options, REMARK_INPUT, noBodySchema, "confirm") };
}

/**
 * One verb with a required remark (`POST /api/{collection}/{id}/{verb}` unless told otherwise):
 * a reversal, a suspension, a reinstatement.
 */
export function remarkAction(options: OneVerb): ActionDecl<typeof remarkBodySchema> {
  return oneVerb(options, REMARK_INPUT, remarkBodySchema);
}

/**
 * One verb with one required text other than a remark (mark paid: the bank reference), drawn
 * like a remark action's dialog: `{[name]: text}`, trimmed, 1 to `max` characters, one line
 * unless told. `label` words the server's messages ("Bank reference is required").
 */
export function textAction<N extends string>(
  options: OneVerb & {
    input: { name: N; max: number; multiline?: boolean; label: string; schemaId: string };
  },
): ActionDecl<z.ZodObject<Record<N, z.ZodString>>> {
  const { input, ...rest } = options;
  const text = (input.multiline ? safeMultilineText() : safeText())
    .trim()
    .min(1, `${input.label} is required`)
    .max(input.max, `${input.label} must be at most ${input.max} characters`);
  const body = z
    .strictObject({ [input.name]: text } as Record<N, z.ZodString>)
    .meta({ id: input.schemaId });
  return oneVerb(
    rest,
    { name: input.name, max: input.max, multiline: input.multiline ?? false },
    body,
  );
}

/**
 * One verb whose body is a zod object staff fill in as a form (`PATCH|POST
 * /api/{collection}/{id}/{verb}` unless told otherwise): a URL, an agent's type and commission.
 * Each key is an input labelled `<ns>:fields.<key>`, drawn as its type says or as `inputs` hint.
 */
export function formAction<Body extends z.ZodObject>(
  options: OneVerb & {
    body: Body;
    inputs?: Partial<Record<keyof Body["shape"] & string, InputHint>>;
    quietWhenUnchanged?: boolean;
    aliases?: readonly ActionAlias[];
    of?: ActionOf;
    /**
     * The body's text the audit entry keeps as its remark (and, without the `x-change-reason`
     * header, the reason for a second approver), when it is not `remark`: a report's resolution
     * keeps its `note`. The form draws its inputs as ever; this draws nothing more.
     */
    input?: { name: keyof Body["shape"] & string; max: number; multiline?: boolean };
    /** Offered on list rows too (default); false: only on the record's own page. */
    listed?: boolean;
    /** Drawn by the module's own page, not by the kit's buttons (see ActionDecl.ownDialog). */
    ownDialog?: true;
  },
): ActionDecl<Body> {
  const { body, inputs, quietWhenUnchanged, aliases, of, input, listed, ownDialog, ...rest } =
    options;
  const text = input
    ? { name: input.name, max: input.max, multiline: input.multiline ?? false }
    : REMARK_INPUT;
  return {
    ...oneVerb(rest, text, body, "form"),
    ...(inputs && { inputs: inputs as Record<string, InputHint> }),
    ...(quietWhenUnchanged && { quietWhenUnchanged }),
    ...(aliases && { aliases }),
    ...(of && { of }),
    ...(listed !== undefined && { listed }),
    ...(ownDialog && { ownDialog }),
  };
}

/**
 * Verbs with no input but a confirmation (and, with `optionalRemark`, a remark staff may give),
 * at one route whose body names the verb (`choice`): ban or unban, VIP on or off. Each verb has
 * its own guard (`whenOf`), 409 message (`refusal`) and audit entry `<audit>.<verb>`.
 */
export function confirmAction<Body extends z.ZodType>(
  options: Omit<OneVerb, "verb" | "done" | "when"> & {
    verbs: Readonly<Record<string, { done: string; value: string | boolean }>>;
    field: string;
    path: string;
    body: Body;
    when?: Readonly<Record<string, readonly string[]>>;
    whenOf?: ActionDecl["whenOf"];
    refusal?: ActionDecl["refusal"];
    optionalRemark?: boolean;
    remarkRequired?: ActionDecl["remarkRequired"];
    oneAuditName?: boolean;
    aliases?: readonly ActionAlias[];
    of?: ActionOf;
  },
): ActionDecl<Body> {
  const { verbs, field, body, when, ...rest } = options;
  return {
    kind: "confirm",
    input: REMARK_INPUT,
    verbs: Object.keys(verbs),
    done: Object.fromEntries(Object.entries(verbs).map(([verb, { done }]) => [verb, done])),
    method: options.method ?? "POST",
    body,
    bulk: options.bulk ?? false,
    danger: options.danger ?? false,
    when: when ?? {},
    choice: {
      field,
      values: Object.fromEntries(Object.entries(verbs).map(([verb, { value }]) => [verb, value])),
    },
    ...rest,
  };
}

/** How a form input shows a value, when its zod type alone does not say. */
export type InputHint =
  /** Integer sen, typed as RM with two decimals. */
  | { kind: "money" }
  /** Integer basis points (0–10000), typed as a percentage with two decimals. */
  | { kind: "basisPoints" }
  /** Several lines of text. */
  | { kind: "multiline" }
  /** HTML written in the rich-text editor (its own lazy chunk); the server cleans it. */
  | { kind: "richText" }
  /** An instant (ISO-8601 text), picked as a date and a time. */
  | { kind: "dateTime" };

/**
 * A form the console draws and the server accepts: create (`POST /api/{collection}`) or edit
 * (`PATCH /api/{collection}/{id}`). Its body is the zod object both sides validate with; each
 * key is an input, labelled `<ns>:fields.<key>`; a literal is sent as it is, without an input.
 */
export interface FormDecl<Body extends z.ZodObject = z.ZodObject> {
  body: Body;
  /** Audit entries are `<audit>.create` / `<audit>.update`. */
  audit: string;
  /** Its own permission code, when it is not the module's. */
  permission?: PermissionCode;
  /** Inputs drawn differently from their type (money in sen, basis points, long text). */
  inputs?: Partial<Record<keyof Body["shape"] & string, InputHint>>;
  /** edit only: the records it applies to (409 `conflictCode` for others). */
  when?: Readonly<Record<string, readonly string[]>>;
  conflictCode?: string;
  /** edit only: a change that leaves the record as it was writes no audit entry. */
  quietWhenUnchanged?: boolean;
  /** Needs a second approver (see ActionDecl.fourEyes). */
  fourEyes?: FourEyesDecl;
  /** Needs a fresh proof of who the administrator is (see ActionDecl.stepUp). */
  stepUp?: true;
}

/** A create or edit form (see FormDecl); the type checker keeps `inputs` to the body's keys. */
export function form<Body extends z.ZodObject>(decl: FormDecl<Body>): FormDecl<Body> {
  return decl;
}

export type SortOrder = "asc" | "desc";

/** The usual order of a list: newest first, the id breaking ties so pages never overlap. */
export const NEWEST_FIRST = [
  ["createdAt", "desc"],
  ["id", "desc"],
] as const;

/**
 * Records that belong to one record, listed (paged, newest first) on its detail page: a
 * business's payments, a settlement's payments. Served at `GET /api/{collection}/{id}/{path}`
 * under the aggregation contract, rows under `queryName`, with the module's permission.
 */
export interface RelatedInput<F extends Record<string, FieldDecl> = Record<string, FieldDecl>> {
  path: string;
  queryName: string;
  /** Words of its fields: `<i18n>:fields.<field>`, values `<i18n>:<field>.<value>`. */
  i18n: string;
  fields: F;
  defaultSort: ReadonlyArray<readonly [keyof F & string, SortOrder]>;
  /** The OpenAPI component name of one row. */
  schemaId: string;
}

/** A declared related list: its sort checked against its fields, its rows' zod object made. */
export interface RelatedDecl extends Omit<RelatedInput, "defaultSort"> {
  defaultSort: ReadonlyArray<readonly [string, SortOrder]>;
  item: z.ZodObject;
}

/** Declares a related list (RelatedInput); its rows are its fields' zod types. */
export function related<F extends Record<string, FieldDecl>>(input: RelatedInput<F>): RelatedDecl {
  return { ...input, item: itemOf(input.fields).meta({ id: input.schemaId }) };
}

/** One record's zod object: every field but the filter-only ones, in declaration order. */
function itemOf(fields: Record<string, FieldDecl>): z.ZodObject {
  return z.object(
    Object.fromEntries(
      Object.entries(fields)
        .filter(([, decl]) => !decl.filterOnly)
        .map(([key, decl]) => [key, decl.schema]),
    ),
  );
}

type AnyForm = FormDecl | undefined;

export interface ModuleInput<
  F extends Record<string, FieldDecl>,
  A extends Record<string, ActionDecl> = Record<string, ActionDecl>,
  C extends AnyForm = AnyForm,
  E extends AnyForm = AnyForm,
> {
  /** The Refine resource name (unique in the console). */
  name: string;
  /** REST path segment: `/api/{collection}/…` (default: the viewed module's, else `name`). */
  collection?: string;
  /**
   * The list's key in aggregation answers (default: the viewed module's, else `name` in
   * camelCase: `top-up-transactions` → `topUpTransactions`).
   */
  queryName?: string;
  /** The list's path when not `/api/{collection}/aggregation` (a view, or a legacy path). */
  listPath?: string;
  /** The menu entry (src/app/menu.ts) it belongs to (default: `paths.list` without its `/`). */
  menu?: string;
  /** Permission code guarding every route; null: any administrator. */
  permission: PermissionCode | null;
  /** The record in the server's English messages: "no permission to access GET <many>". */
  thing: { one: string; many: string };
  /** Translation namespace: labels are `<i18n>:fields.<field>`, values `<i18n>:<field>.<value>`. */
  i18n: string;
  /**
   * The console's paths: the list, the detail page's prefix (`<show>/<id>`), and the routes of
   * its create and edit screens when it has them (`/admin-mgmt/create`, `/manage-admin/:id/edit`).
   */
  paths: { list: string; show?: string; create?: string; edit?: string };
  /**
   * A detail page only (a ledger row, opened from a link or a look-up by reference): no list
   * route, no list page, no menu entry; `paths.show` is required and `paths.list` is only its
   * prefix.
   */
  detailOnly?: boolean;
  fields: F;
  /** The field naming a record in dialogs and toasts ("Approve Nur Aina"). */
  titleField: keyof F & string;
  defaultSort: ReadonlyArray<readonly [keyof F & string, SortOrder]>;
  /**
   * Rows the list always asks for (User > Approval: pending users), whatever else is chosen: a
   * view of another module's list, on the same endpoint.
   */
  fixedFilters?: Partial<Record<keyof F & string, string>>;
  /** Filters a list opens with (a queue opens on its pending rows); the user may change them. */
  initialFilters?: Partial<Record<keyof F & string, string>>;
  actions?: A;
  /** The create form (`POST /api/{collection}`), when staff may add records. */
  create?: C;
  /** The edit form (`PATCH /api/{collection}/{id}`), when staff may change records. */
  edit?: E;
  /**
   * A named server-side scope of the collection (pending only, dormant only): the server binds
   * it to a condition, and the list answers only rows inside it, whatever the client asks.
   */
  scope?: string;
  /** The OpenAPI component name of one record (default: `<queryName>Item`). */
  schemaId?: string;
  /** A view of another module's records (same fields): its record schema is reused. */
  viewOf?: ModuleDecl;
  /** Lists on the detail page of records that belong to this one (`<i18n>:related.<key>`). */
  related?: Readonly<Record<string, RelatedDecl>>;
  /**
   * States in which a record changes by itself (a notification being delivered): its detail page
   * reads it again every few seconds while `field` holds one of `values`.
   */
  live?: { field: keyof F & string; values: readonly string[] };
  /**
   * Number fields the list sums over every row the filters select (not only the page): the
   * answer's `totals`, shown above the list ("for the filtered range").
   */
  totals?: ReadonlyArray<keyof F & string>;
}

export interface ModuleDecl<
  F extends Record<string, FieldDecl> = Record<string, FieldDecl>,
  A extends Record<string, ActionDecl> = Record<string, ActionDecl>,
  C extends AnyForm = AnyForm,
  E extends AnyForm = AnyForm,
> extends ModuleInput<F, A, C, E> {
  /** The header as defineModule completes it (see headerOf): always present. */
  collection: string;
  queryName: string;
  menu: string;
  actions: A;
  /** One record as the API answers it: the fields' zod types, in declaration order. */
  item: z.ZodObject<{
    [K in keyof F as F[K]["filterOnly"] extends true ? never : K]: F[K]["schema"];
  }>;
}

/** Whether a link leads to a declared module (not `self`, a name or a row's field). */
export const isLinkedModule = (to: LinkTo): to is LinkedModule =>
  typeof to === "object" && !("field" in to);

/** The field a link's row names its module in (`{ field }`), if it does. */
export const rowField = (to: LinkTo): string | undefined =>
  typeof to === "object" && "field" in to ? to.field : undefined;

function problem(module: string, what: string): Error {
  return new Error(`Module "${module}": ${what}`);
}

/**
 * A declaration's header with what it leaves out derived: a view lists the records of the module
 * it views (its collection and list key), others their own, named as the module is; the menu entry
 * is the one at the list's path.
 */
function headerOf(
  input: Pick<
    ModuleInput<Record<string, FieldDecl>>,
    "name" | "collection" | "queryName" | "menu" | "paths" | "viewOf"
  >,
): Pick<ModuleDecl, "collection" | "queryName" | "menu"> {
  const { name, viewOf } = input;
  return {
    collection: input.collection ?? viewOf?.collection ?? name,
    queryName:
      input.queryName ??
      viewOf?.queryName ??
      name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()),
    menu: input.menu ?? input.paths.list.replace(/^\//, ""),
  };
}

/**
 * Checks and completes a declaration. Anything inconsistent (a filter kind its type cannot
 * carry, an unknown permission code, a sort or title naming no field) fails here, at import,
 * with the module and field named: never at a user's first click.
 */
export function defineModule<
  F extends Record<string, FieldDecl>,
  A extends Record<string, ActionDecl> = Record<never, ActionDecl>,
  C extends AnyForm = undefined,
  E extends AnyForm = undefined,
>(input: ModuleInput<F, A, C, E>): ModuleDecl<F, A, C, E> {
  const { name, fields } = input;
  const header = headerOf(input);
  if (input.permission !== null && !isPermissionCode(input.permission)) {
    throw problem(name, `permission code ${String(input.permission)} does not exist`);
  }
  for (const [key, decl] of Object.entries(fields)) {
    if (decl.filter && !filterKindsOf(decl.schema).includes(decl.filter)) {
      throw problem(
        name,
        `field "${key}" cannot be filtered as "${decl.filter}" (its type is ${decl.schema.def.type})`,
      );
    }
    if (decl.display?.kind === "link" && !(decl.display.idField in fields)) {
      throw problem(name, `field "${key}" links by "${decl.display.idField}", which is no field`);
    }
    const ownShow = (input.viewOf ?? input).paths.show;
    if (decl.display?.kind === "link" && decl.display.to === "self" && !ownShow) {
      throw problem(name, `field "${key}" links to its own detail page, which it does not have`);
    }
    const named =
      decl.display?.kind === "changes" && "ofField" in decl.display
        ? decl.display.ofField
        : decl.display?.kind === "link" && rowField(decl.display.to)
          ? rowField(decl.display.to)
          : undefined;
    if (named !== undefined && !(named in fields)) {
      throw problem(name, `field "${key}" names its module by "${named}", which is no field`);
    }
    if (decl.display?.kind === "link" && isLinkedModule(decl.display.to)) {
      const target = decl.display.to;
      if (!(target.viewOf ?? target).paths.show) {
        throw problem(name, `field "${key}" links to "${target.name}", which has no detail page`);
      }
    }
  }
  const known = (key: string, what: string, also: readonly string[] = []) => {
    if (!(key in fields) && !also.includes(key)) {
      throw problem(name, `${what} names "${key}", which is no field`);
    }
  };
  known(input.titleField, "titleField");
  for (const [key] of input.defaultSort) known(key, "defaultSort");
  for (const key of Object.keys(input.initialFilters ?? {})) known(key, "initialFilters");
  for (const key of Object.keys(input.fixedFilters ?? {})) known(key, "fixedFilters");
  const actions = input.actions ?? ({} as A);
  for (const [actionName, action] of Object.entries(actions)) {
    const own = action.of?.fields;
    for (const key of Object.keys(action.when)) known(key, `action "${actionName}"`, own);
    for (const [verb, guard] of Object.entries(action.whenOf ?? {})) {
      if (!action.verbs.includes(verb)) {
        throw problem(name, `action "${actionName}" guards "${verb}", which is none of its verbs`);
      }
      for (const key of Object.keys(guard)) known(key, `action "${actionName}"`, own);
    }
    if (action.permission !== undefined && !isPermissionCode(action.permission)) {
      throw problem(name, `action "${actionName}" has an unknown permission code`);
    }
    if (action.fourEyes && action.answer) {
      throw problem(name, `action "${actionName}" has an effect, which four eyes cannot hold back`);
    }
    checkFourEyes(name, `action "${actionName}"`, action.fourEyes, fields, action.body);
  }
  for (const [formName, decl] of [
    ["create", input.create],
    ["edit", input.edit],
  ] as const) {
    if (!decl) continue;
    for (const key of Object.keys(decl.inputs ?? {})) {
      if (!(key in decl.body.shape)) {
        throw problem(
          name,
          `${formName} form has an input hint for "${key}", which it does not take`,
        );
      }
    }
    for (const key of Object.keys(decl.when ?? {})) known(key, `${formName} form`);
    if (decl.permission !== undefined && !isPermissionCode(decl.permission)) {
      throw problem(name, `${formName} form has an unknown permission code`);
    }
    checkFourEyes(name, `${formName} form`, decl.fourEyes, fields, decl.body);
  }
  if (input.detailOnly && !input.paths.show) {
    throw problem(name, "a detail page only needs paths.show");
  }
  if (input.detailOnly && input.viewOf) throw problem(name, "a view cannot be a detail page only");
  if (input.create && !input.paths.create) throw problem(name, "create form has no paths.create");
  if (input.edit && !input.paths.edit) throw problem(name, "edit form has no paths.edit");
  for (const [key, list] of Object.entries(input.related ?? {})) {
    if (!input.paths.show) throw problem(name, `related list "${key}" has no detail page to be on`);
    for (const [field] of list.defaultSort) {
      if (!(field in list.fields)) {
        throw problem(name, `related list "${key}" sorts by "${field}", which is no field`);
      }
    }
  }
  if (input.live) known(input.live.field, "live");
  for (const key of input.totals ?? []) {
    known(key, "totals");
    if (!filterKindsOf(fields[key]!.schema).includes("numberRange")) {
      throw problem(name, `totals names "${key}", which is not a number`);
    }
  }
  const record = itemOf(fields);
  if (input.viewOf) {
    const own = Object.keys(record.shape).sort().join();
    const viewed = Object.keys(input.viewOf.item.shape).filter((key) => key !== VERSION_FIELD);
    if (own !== viewed.sort().join()) {
      throw problem(name, `its fields differ from those of "${input.viewOf.name}", which it views`);
    }
  }
  // A record staff change through the kit (an edit form, an action) carries its version, declared
  // here once for every module (docs/versions.md); a view carries that of the module it views.
  const versioned = Boolean(input.edit) || Object.keys(actions).length > 0;
  if (versioned && VERSION_FIELD in fields) {
    throw problem(name, `field "${VERSION_FIELD}" is the kit's own (a record's version)`);
  }
  // A view shows the records of the module it views: one schema (and OpenAPI component).
  const item = (input.viewOf?.item ??
    (versioned ? record.extend({ [VERSION_FIELD]: versionSchema }) : record).meta({
      id: input.schemaId ?? `${header.queryName}Item`,
    })) as ModuleDecl<F, A, C, E>["item"];
  const declared = { ...input, ...header, actions, item };
  // The registry finds declarations by this mark (src/shared/kit/registry.ts); not enumerable, so
  // it never reaches a spread, a JSON answer or a comparison.
  Object.defineProperty(declared, DECLARED, { value: true });
  return declared;
}

/** A four-eyes declaration's amount names a body key or a field; a threshold needs an amount. */
function checkFourEyes(
  module: string,
  what: string,
  decl: FourEyesDecl | undefined,
  fields: Record<string, FieldDecl>,
  body: z.ZodType,
): void {
  if (!decl) return;
  if (decl.above && !decl.amount) throw problem(module, `${what} has a threshold but no amount`);
  const amount = decl.amount;
  if (amount && "record" in amount && !(amount.record in fields)) {
    throw problem(module, `${what} reads its amount from "${amount.record}", which is no field`);
  }
  const shape = body instanceof z.ZodObject ? (body.shape as Record<string, unknown>) : {};
  if (amount && "body" in amount && !(amount.body in shape)) {
    throw problem(module, `${what} reads its amount from "${amount.body}", which it does not take`);
  }
  if (decl.checkerPermission !== undefined && !isPermissionCode(decl.checkerPermission)) {
    throw problem(module, `${what} has an unknown checker permission code`);
  }
  // Money never moves on one person's word, even when nobody else could check it.
  if (decl.unlessNoChecker && amount) {
    throw problem(module, `${what} moves money: it cannot apply at once without a checker`);
  }
}

/** The record type a declaration describes. */
export type ItemOf<M extends ModuleDecl> = z.output<M["item"]>;
