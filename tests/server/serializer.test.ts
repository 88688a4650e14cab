/**
 * The API's response serializer (server/http/serializer.ts): zod's forward parse, which gives the
 * JSON an encode gives for schemas without direction-dependent parts, and refuses the others.
 */
import { isResponseSerializationError } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { responseSerializer } from "../../server/http/serializer";

const serializerOf = (schema: z.ZodType) =>
  responseSerializer({ schema, method: "GET", url: "/v1/api/probe", httpStatus: "200" });

describe("response serializer", () => {
  const item = z.object({ id: z.number().int(), tags: z.array(z.string()).optional() });

  it("writes what the schema declares and leaves out the rest", () => {
    const serialize = serializerOf(item);
    expect(JSON.parse(serialize({ id: 7, passwordHash: "x", tags: ["a"] }))).toEqual({
      id: 7,
      tags: ["a"],
    });
  });

  it("refuses a response that breaks its schema", () => {
    const serialize = serializerOf(item);
    let thrown: unknown;
    try {
      serialize({ id: 7.5 });
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });

  it("refuses, when a route is declared, a response schema that reads differently encoded", () => {
    const nested = z.object({ a: z.array(z.object({ when: z.string().transform(Number) })) });
    expect(() => serializerOf(nested)).toThrow(/\.a\[\]\.when: pipe/);
    expect(() => serializerOf(z.object({ n: z.number().default(1) }))).toThrow(/\.n: default/);
    expect(() => serializerOf(z.union([z.string(), z.string().catch("")]))).toThrow(/catch/);
  });
});
