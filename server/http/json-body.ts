import type { FastifyInstance } from "fastify";

import { hasLoneSurrogate } from "../../src/shared/text";
import { isJsonObject, parseStrictJson, type Json } from "../aggregation/json";

/** Nesting a request body may have; the API's bodies are a few levels deep. */
const MAX_BODY_DEPTH = 32;

/** A client error Fastify's error handler turns into 400 `{ message }`, like malformed JSON. */
class BodyError extends Error {
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = "BodyError";
  }
}

function toPlain(value: Json): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of value) {
    // As Fastify's own parser: these keys only ever serve prototype pollution.
    if (
      key === "__proto__" ||
      (key === "constructor" && isJsonObject(item) && item.has("prototype"))
    ) {
      throw new BodyError("Body is not valid JSON: forbidden prototype property");
    }
    out[key] = toPlain(item);
  }
  return out;
}

/** Parses a JSON request body strictly; throws a 400 error naming what is wrong. */
export function parseJsonBody(text: string): unknown {
  if (text === "") {
    throw new BodyError("Body cannot be empty when content-type is set to 'application/json'");
  }
  const value = parseStrictJson(text, {
    fail: (reason) => {
      throw new BodyError(`Body is not valid JSON: ${reason}`);
    },
    maxDepth: MAX_BODY_DEPTH,
    // A `\uD800` escape decodes to half a character, which no database or e-mail can hold.
    checkString: (string) =>
      hasLoneSurrogate(string) ? "holds a lone surrogate (invalid Unicode)" : undefined,
  });
  return toPlain(value);
}

/**
 * Replaces Fastify's JSON body parser with the strict one: duplicate keys (which `JSON.parse`
 * silently resolves to the last) and lone surrogates are refused with 400. Size limits (413) and
 * other media types (415) stay Fastify's.
 */
export function installStrictJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
