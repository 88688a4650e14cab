import { z } from "zod";

/**
 * The one rule for text the API accepts (names, e-mails, remarks, URLs, search terms, account
 * numbers, query values): shared by the browser and the server, so a form refuses what the server
 * would refuse, for the same reason.
 *
 * - No control characters (C0, DEL, C1). PostgreSQL cannot store U+0000 at all, and the others
 *   have no business in a name or a remark. Multi-line text (remarks) may hold `\n` and `\t`.
 * - No line or paragraph separators (U+2028, U+2029): they break lines where `\n` is not allowed.
 * - No bidirectional embeddings, overrides or isolates (U+202A–U+202E, U+2066–U+2069): they make
 *   text display in another order than it is stored (a "right-to-left override" spoof). The
 *   server holds rich bodies and uploaded file names to this part too (hasBidiControl).
 * - No lone UTF-16 surrogates: they are not characters and cannot be encoded as UTF-8.
 * - Text that is not empty must show something: not only blanks and invisible characters
 *   (zero-width spaces and joiners, word joiners, soft hyphens, byte-order marks, …).
 */

/** The bidirectional embeddings, overrides and isolates, as a character class's ranges. */
const BIDI_RANGES = "\\u202A-\\u202E\\u2066-\\u2069";
/** Characters single-line text must not contain (also the OpenAPI `pattern`, negated). */
export const SINGLE_LINE_FORBIDDEN = `\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029${BIDI_RANGES}`;
/** As above, but `\t` (U+0009) and `\n` (U+000A) are allowed. */
const MULTI_LINE_FORBIDDEN = `\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u2028\\u2029${BIDI_RANGES}`;

/**
 * Code points of the Basic Multilingual Plane that show nothing and are not whitespace (soft
 * hyphen, zero-width characters, joiners, variation selectors, byte-order mark, Hangul fillers,
 * …): INVISIBLE below without `\s`, written out because JSON Schema validators know neither
 * `\p{…}` nor the `u` flag for certain (tests/server/openapi-truth.test.ts checks the list).
 */
export const INVISIBLE_BMP_RANGES =
  "\\u00AD\\u034F\\u0600-\\u0605\\u061C\\u06DD\\u070F\\u0890-\\u0891\\u08E2\\u115F-\\u1160" +
  "\\u17B4-\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u2060-\\u2065\\u206A-\\u206F\\u3164\\uFE00-\\uFE0F" +
  "\\uFFA0\\uFFF0-\\uFFFB";

/**
 * The whole text rule as one pattern for the document, from the string's own checks: the allowed
 * characters (`forbidden` is a class's ranges), and "not only invisible characters": blank (only
 * whitespace, which a trim and a length rule then judge), or a visible character after any blanks
 * and invisible ones; where a trim comes before a minimum length of 1 or more, blank is refused
 * too. Linear: the classes before and at the first visible character are disjoint. Outside the
 * BMP every character counts as visible here (the server refuses a text of only tag characters,
 * U+E0000–U+E007F, which the pattern allows).
 */
export function documentedTextPattern(
  forbidden: string,
  requireVisible: boolean,
  nonBlank: boolean,
): string {
  const allowed = `[^${forbidden}]`;
  if (!requireVisible)
    return nonBlank ? `^${allowed}*[^\\s${forbidden}]${allowed}*$` : `^${allowed}*$`;
  const blank = `[^\\S${forbidden}]`;
  const unseen = `(?:${blank}|[${INVISIBLE_BMP_RANGES}])`;
  const visible = `[^\\s${forbidden}${INVISIBLE_BMP_RANGES}]`;
  const shown = `${unseen}*${visible}${allowed}*`;
  return nonBlank ? `^${shown}$` : `^(?:${blank}*|${shown})$`;
}

/** Whether a string schema's checks trim it before a minimum length of 1 or more. */
function trimsBeforeMinimum(checks: readonly z.core.$ZodCheck[]): boolean {
  const trim = checks.findIndex(
    (check) =>
      check._zod.def.check === "overwrite" &&
      String((check._zod.def as { tx?: unknown }).tx).includes(".trim()"),
  );
  return (
    trim !== -1 &&
    checks.some(
      (check, index) =>
        index > trim &&
        check._zod.def.check === "min_length" &&
        (check._zod.def as unknown as { minimum: number }).minimum >= 1,
    )
  );
}

/**
 * The character rule as a check (`pattern` refused as a regex format, the message `message`
 * gives), which also states the whole text rule in the document as ONE pattern: on each schema it
 * is attached to (every `.trim()`, `.min()`, … makes a new one) it adds a pattern whose text is
 * read when the document is written, from that schema's checks. One pattern, not `.regex()`'s
 * plus a second: zod writes several as an `allOf` of typed parts, which a `nullable` beside them
 * cannot reach.
 */
function textRuleCheck(
  pattern: RegExp,
  forbidden: string,
  requireVisible: boolean,
  message: (input: string) => string,
) {
  const check = z.check<string>((payload) => {
    if (pattern.test(payload.value)) return;
    payload.issues.push({
      code: "invalid_format",
      format: "regex",
      pattern: pattern.source,
      input: payload.value,
      message: message(payload.value),
    });
  });
  check._zod.onattach.push((schema) => {
    const bag = schema._zod.bag as { patterns?: Set<{ source: string }> };
    bag.patterns ??= new Set();
    bag.patterns.add({
      get source() {
        const checks = (schema._zod.def as { checks?: z.core.$ZodCheck[] }).checks ?? [];
        return documentedTextPattern(forbidden, requireVisible, trimsBeforeMinimum(checks));
      },
    });
  });
  return check;
}

/** A whole string without forbidden characters; published as the schema's `pattern`. */
export const SINGLE_LINE_PATTERN = new RegExp(`^[^${SINGLE_LINE_FORBIDDEN}]*$`);
export const MULTI_LINE_PATTERN = new RegExp(`^[^${MULTI_LINE_FORBIDDEN}]*$`);

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/; // eslint-disable-line no-control-regex
const LINE_SEPARATORS = /[\u2028\u2029]/;
const BIDI_CONTROLS = new RegExp(`[${BIDI_RANGES}]`, "g");
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Blanks, default-ignorable code points (zero-width characters, BOM, soft hyphen, …), format marks. */
const INVISIBLE = /[\s\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * Blank: empty or only whitespace (JavaScript's, line breaks, U+00A0, U+3000 and U+FEFF
 * included). The one definition the API's filters refuse and the console leaves out as cleared.
 */
export const isBlank = (text: string): boolean => text.trim() === "";

export interface TextRuleOptions {
  /** Allow `\n` and `\t` (remarks). Default false. */
  multiline?: boolean;
  /** Non-empty text must hold a visible character. Default true. */
  requireVisible?: boolean;
}

/** Why `text` breaks the rule, as a sentence for an error message; undefined when it is fine. */
export function textProblem(text: string, options: TextRuleOptions = {}): string | undefined {
  const { multiline = false, requireVisible = true } = options;
  if (LONE_SURROGATE.test(text)) return "must not contain lone surrogates (invalid Unicode)";
  const control = (multiline ? text.replace(/[\n\t]/g, "") : text).match(CONTROL)?.[0];
  if (control !== undefined) {
    const found = `U+${control.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    return multiline
      ? `must not contain control characters (found ${found}; only line breaks and tabs are allowed)`
      : `must not contain control characters or line breaks (found ${found})`;
  }
  if (LINE_SEPARATORS.test(text)) return "must not contain Unicode line or paragraph separators";
  if (hasBidiControl(text)) return BIDI_CONTROL_PROBLEM;
  // Blank text is left to the schema's trim and length rules ("Required"); this catches text
  // that looks blank but is not, e.g. only zero-width spaces.
  if (requireVisible && text.trim() !== "" && text.replace(INVISIBLE, "") === "") {
    return "must contain visible characters, not only blank or invisible ones";
  }
  return undefined;
}

/**
 * Why text holding a bidirectional control is refused, in the same words wherever the rule is
 * applied: titles and names (textProblem), but also rich bodies and uploaded file names.
 */
export const BIDI_CONTROL_PROBLEM = "must not contain bidirectional override or isolate characters";

/** Whether `text` holds a bidirectional embedding, override or isolate (the spoof above). */
export const hasBidiControl = (text: string) => text.search(BIDI_CONTROLS) !== -1;

/** `text` without its bidirectional controls: for what must never carry one (a header). */
export const withoutBidiControls = (text: string) => text.replace(BIDI_CONTROLS, "");

/** Whether `text` holds half of a UTF-16 surrogate pair (not a character; no UTF-8 for it). */
export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

/** True when `text` breaks the rule (see `textProblem`). */
export const isUnsafeText = (text: string, options?: TextRuleOptions) =>
  textProblem(text, options) !== undefined;

type StringParams = Parameters<typeof z.string>[0];

function textSchema(options: TextRuleOptions, params?: StringParams) {
  const pattern = options.multiline ? MULTI_LINE_PATTERN : SINGLE_LINE_PATTERN;
  const { requireVisible = true } = options;
  // The check publishes the rule as the OpenAPI `pattern` (so a generated client or a fuzzer
  // knows it); the messages come from textProblem, with the precise reason.
  return z
    .string(params)
    .check(
      textRuleCheck(
        pattern,
        options.multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN,
        requireVisible,
        (input) => `Text ${textProblem(input, options) ?? "is not allowed"}`,
      ),
    )
    .superRefine((text, ctx) => {
      if (!pattern.test(text)) return; // already reported by the character check
      const problem = textProblem(text, options);
      if (problem) ctx.addIssue({ code: "custom", message: `Text ${problem}`, input: text });
    });
}

/**
 * Single-line text: a name, an e-mail, an account number, a URL, a search term. Chain as a
 * `z.string()`: `safeText().trim().min(1).max(100)`.
 */
export const safeText = (options: Omit<TextRuleOptions, "multiline"> = {}, params?: StringParams) =>
  textSchema({ ...options, multiline: false }, params);

/** Multi-line text (a remark): `\n` and `\t` allowed, other control characters not. */
export const safeMultilineText = (
  options: Omit<TextRuleOptions, "multiline"> = {},
  params?: StringParams,
) => textSchema({ ...options, multiline: true }, params);

/**
 * A whole number sent as text (a query-string page, a path id): decimal digits only, so "0x10",
 * "1e2", " 5", "+5" or "5.0" are refused instead of being read as 16, 100 or 5. The document
 * states the range too, as a pattern (decimalRangePattern) and a length, so that a client or a
 * fuzzer built from it never sends an id the server refuses as too big.
 */
export const decimalIntegerText = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,16}$/, "Must be a whole number written in decimal digits")
    .meta({ allOf: [{ pattern: decimalRangePattern(min, max) }] })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/**
 * An ECMA-262 pattern for the decimal numbers from `min` to `max` (0 ≤ min ≤ max), leading zeros
 * allowed (the server reads "007" as 7): e.g. 1–100 is `^0*(?:[1-9]|[1-9][0-9]|100)$`.
 */
export function decimalRangePattern(min: number, max: number): string {
  const parts: string[] = [];
  // Split [min, max] into runs that share a prefix and end in whole decades: 1–9, 10–99, 100–100.
  const range = (low: string, high: string): string[] => {
    if (low.length < high.length) {
      return [...range(low, "9".repeat(low.length)), ...range(`1${"0".repeat(low.length)}`, high)];
    }
    if (low === high) return [low];
    // Same length: the longest common prefix, then the first differing digit.
    let i = 0;
    while (low[i] === high[i]) i += 1;
    const prefix = low.slice(0, i);
    const rest = low.length - i - 1;
    const lowDigit = Number(low[i]);
    const highDigit = Number(high[i]);
    const lowTail = low.slice(i + 1);
    const highTail = high.slice(i + 1);
    const any = (n: number) => (n === 0 ? "" : n === 1 ? "[0-9]" : `[0-9]{${n}}`);
    const digits = (a: number, b: number) => (a === b ? `${a}` : `[${a}-${b}]`);
    if (rest === 0) return [`${prefix}${digits(lowDigit, highDigit)}`];
    const out: string[] = [];
    let from = lowDigit;
    if (lowTail !== "0".repeat(rest)) {
      out.push(...range(lowTail, "9".repeat(rest)).map((tail) => `${prefix}${lowDigit}${tail}`));
      from += 1;
    }
    let to = highDigit;
    const highAll = highTail === "9".repeat(rest);
    if (!highAll) to -= 1;
    if (from <= to) out.push(`${prefix}${digits(from, to)}${any(rest)}`);
    if (!highAll) {
      out.push(...range("0".repeat(rest), highTail).map((tail) => `${prefix}${highDigit}${tail}`));
    }
    return out;
  };
  if (min === 0) parts.push("0");
  const low = Math.max(min, 1);
  if (low <= max) parts.push(...range(String(low), String(max)));
  return `^0*(?:${parts.join("|")})$`;
}

/**
 * Control characters (U+0000–U+001F, U+007F) have no place in a search, and refusing them keeps
 * a search column's match inside one field (its fields are joined with U+001F).
 */
export const hasControlCharacters = (text: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is sought
  /[\u0000-\u001f\u007f]/.test(text);
