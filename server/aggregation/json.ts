import { isBlank, textProblem } from "../../src/shared/text";
import { InvalidQueryError } from "../errors";
import { AGGREGATION_LIMITS } from "./types";

/** A parsed JSON value; objects keep their key order and never hold duplicate keys. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = Map<string, Json>;

export const isJsonObject = (value: Json): value is JsonObject => value instanceof Map;

/** Describes a JSON value's kind for error messages ("a string", "an array", …). */
export function describeJson(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : "an array";
  if (isJsonObject(value)) return "an object";
  return typeof value === "number" ? "a number" : `a ${typeof value}`;
}

// The aggregation language refuses a blank parameter or text value; a blank `$search` is no search.
export { isBlank };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Parses one query parameter's JSON strictly (RFC 8259): unlike `JSON.parse` it rejects duplicate
 * keys (which would otherwise silently drop a filter or reorder a sort), keeps key order exactly as
 * sent, and bounds length and nesting so hostile input can't exhaust the stack.
 */
export function parseJsonParameter(parameter: string, text: string): Json {
  const fail = (reason: string): never => {
    throw new InvalidQueryError(parameter, reason);
  };
  if (text.length > AGGREGATION_LIMITS.maxParameterLength) {
    fail(`too long (at most ${AGGREGATION_LIMITS.maxParameterLength} characters)`);
  }
  // A blank parameter is a mistake (a template that lost its value), not "no condition".
  if (isBlank(text)) fail("is blank (omit the parameter instead)");
  return parseStrictJson(text, {
    fail,
    maxDepth: AGGREGATION_LIMITS.maxJsonDepth,
    // Keys and values alike follow the API's one text rule (empty strings stay allowed here).
    checkString: (value) => textProblem(value, { requireVisible: false }),
  });
}

export interface StrictJsonOptions {
  fail: (reason: string) => never;
  maxDepth: number;
  /** Why a decoded string (key or value) is refused, if it is. */
  checkString: (value: string) => string | undefined;
}

/**
 * The strict JSON parser behind query parameters and request bodies (RFC 8259): unlike
 * `JSON.parse` it rejects duplicate keys, keeps key order exactly as sent, and bounds nesting.
 */
export function parseStrictJson(text: string, options: StrictJsonOptions): Json {
  const { fail, maxDepth, checkString } = options;
  let pos = 0;
  const malformed = (expected: string): never => {
    const found = pos < text.length ? JSON.stringify(text[pos]) : "end of input";
    return fail(`malformed JSON (expected ${expected} at position ${pos}, found ${found})`);
  };
  const skipSpace = () => {
    while (pos < text.length && " \t\n\r".includes(text[pos] as string)) pos++;
  };
  const expect = (char: string) => {
    skipSpace();
    if (text[pos] !== char) malformed(JSON.stringify(char));
    pos++;
  };

  /** The key whose value is being read (named in messages); undefined inside an array. */
  let valueOf: string | undefined;
  const parseString = (isKey = false): string => {
    expect('"');
    const start = pos - 1;
    let out = "";
    for (;;) {
      const char = text[pos];
      if (char === undefined) return malformed("a closing quote");
      if (char === '"') break;
      if (char < " ") return malformed("an escaped control character");
      if (char !== "\\") {
        out += char;
        pos++;
        continue;
      }
      const escape = text[pos + 1] ?? "";
      if (escape === "u") {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          pos += 2;
          return malformed("four hex digits");
        }
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (Object.hasOwn(ESCAPES, escape)) {
        out += ESCAPES[escape];
        pos += 2;
      } else {
        pos++;
        return malformed("a valid escape sequence");
      }
    }
    pos++;
    const problem = checkString(out);
    if (problem) {
      const what = isKey
        ? `the key at position ${start}`
        : valueOf !== undefined
          ? JSON.stringify(valueOf)
          : `the string at position ${start}`;
      fail(`${what} ${problem}`);
    }
    return out;
  };

  const parseValue = (depth: number): Json => {
    skipSpace();
    const char = text[pos];
    if (char === '"') return parseString();
    if (char === "{" || char === "[") {
      if (depth >= maxDepth) {
        fail(`nested too deeply (at most ${maxDepth} levels)`);
      }
      return char === "{" ? parseObject(depth + 1) : parseArray(depth + 1);
    }
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) return malformed("a JSON value");
    const value = Number(match[0]);
    if (!Number.isFinite(value)) fail(`number ${match[0]} is out of range`);
    pos += match[0].length;
    return value;
  };

  /** The items of an array or the members of an object, each read by `item`, up to `close`. */
  const parseItems = (open: "[" | "{", close: "]" | "}", item: () => void) => {
    expect(open);
    skipSpace();
    if (text[pos] === close) {
      pos++;
      return;
    }
    for (;;) {
      item();
      skipSpace();
      if (text[pos] === close) break;
      if (text[pos] !== ",") malformed(`"," or "${close}"`);
      pos++;
    }
    pos++;
  };

  const parseArray = (depth: number): Json[] => {
    const items: Json[] = [];
    parseItems("[", "]", () => {
      valueOf = undefined;
      items.push(parseValue(depth));
    });
    return items;
  };

  const parseObject = (depth: number): JsonObject => {
    const entries: JsonObject = new Map();
    parseItems("{", "}", () => {
      skipSpace();
      const keyAt = pos;
      const key = parseString(true);
      if (entries.has(key)) fail(`duplicate key ${JSON.stringify(key)} at position ${keyAt}`);
      expect(":");
      valueOf = key;
      entries.set(key, parseValue(depth));
    });
    return entries;
  };

  const value = parseValue(0);
  skipSpace();
  if (pos < text.length) malformed("end of input");
  return value;
}

/** Parses a parameter that must be a JSON object. */
export function parseObjectParameter(parameter: string, text: string): JsonObject {
  const value = parseJsonParameter(parameter, text);
  if (!isJsonObject(value)) {
    throw new InvalidQueryError(parameter, `must be a JSON object, got ${describeJson(value)}`);
  }
  return value;
}
