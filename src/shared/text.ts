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
const SINGLE_LINE_FORBIDDEN = `\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029${BIDI_RANGES}`;
/** As above, but `\t` (U+0009) and `\n` (U+000A) are allowed. */
const MULTI_LINE_FORBIDDEN = `\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u2028\\u2029${BIDI_RANGES}`;

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
  // The regex publishes the character rule as the OpenAPI `pattern` (so a generated client or a
  // fuzzer knows it); the messages come from textProblem, with the precise reason.
  return z
    .string(params)
    .regex(pattern, {
      error: (issue) => `Text ${textProblem(String(issue.input), options) ?? "is not allowed"}`,
    })
    .superRefine((text, ctx) => {
      if (!pattern.test(text)) return; // already reported by the regex
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
 * "1e2", " 5", "+5" or "5.0" are refused instead of being read as 16, 100 or 5.
 */
export const decimalIntegerText = (min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]{1,16}$/, "Must be a whole number written in decimal digits")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/**
 * Control characters (U+0000–U+001F, U+007F) have no place in a search, and refusing them keeps
 * a search column's match inside one field (its fields are joined with U+001F).
 */
export const hasControlCharacters = (text: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is sought
  /[\u0000-\u001f\u007f]/.test(text);
