import { z } from "zod";

import { decimalIntegerText, safeText } from "../text";

import { isHttpUrl, REMARK_MAX_LENGTH, USER_URL_MAX_LENGTH } from "../user-actions";
import { isoDateTime } from "./common";
import { remarkSchema } from "../kit/module";
import { alternativesRule, crossFieldRule } from "./rules";

// The remark rule and the approve / reject body are the module kit's (one definition).
export { decisionBodySchema, remarkSchema, type DecisionBody } from "../kit/module";

export const banRemarkSchema = remarkSchema
  .optional()
  .describe(`Required when banning; at most ${REMARK_MAX_LENGTH} characters`);

/**
 * Banning needs a remark (the user is told why); unbanning does not. The document states it as
 * "ban is false, or remark is given".
 */
export function requireRemarkWhenBanning<T extends z.ZodObject>(schema: T): T {
  return alternativesRule(
    schema,
    [{ properties: { ban: { enum: [false] } } }, { required: ["remark"] }],
    (value, ctx) => {
      const { ban, remark } = value as { ban: boolean; remark?: string };
      if (ban && remark === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["remark"],
          message: "Remark is required when banning",
        });
      }
    },
  );
}

export const banBodySchema = requireRemarkWhenBanning(
  z.strictObject({ ban: z.boolean(), remark: banRemarkSchema }),
).meta({ id: "BanBody" });
export type BanBody = z.infer<typeof banBodySchema>;

export const userUrlSchema = crossFieldRule(
  safeText()
    .trim()
    .max(USER_URL_MAX_LENGTH, `URL must be at most ${USER_URL_MAX_LENGTH} characters`),
  {
    fields: ["url"],
    rule: "url: an absolute http:// or https:// address, no blanks or backslashes",
  },
  (url, ctx) => {
    if (!isHttpUrl(url)) {
      ctx.addIssue({
        code: "custom",
        message: "URL must be an absolute http:// or https:// address",
        // The console words it (`users:form.httpUrl`).
        params: { rule: "httpUrl" },
      });
    }
  },
);

export const urlBodySchema = z
  .strictObject({ url: userUrlSchema.nullable().describe("null clears the URL") })
  .meta({ id: "UserUrlBody" });

/** VIP on (`true`) or off. */
export const vipBodySchema = z.strictObject({ isVip: z.boolean() }).meta({ id: "UserVipBody" });

/** One audit entry about a user, for the console's history panel. */
export const auditEntrySchema = z
  .object({
    id: z.number().int(),
    action: z.string().describe("e.g. user.approve, user.ban, user.change_contact"),
    adminId: z.number().int().nullable(),
    adminName: z.string().nullable().describe("Null for the system or a deleted administrator"),
    remark: z.string().nullable(),
    before: z.unknown(),
    after: z.unknown(),
    createdAt: isoDateTime,
  })
  .meta({ id: "AuditEntry" });
export type AuditEntryDto = z.output<typeof auditEntrySchema>;

export const AUDIT_PAGE_SIZE_MAX = 100;
export const auditQuerySchema = z.strictObject({
  page: decimalIntegerText(1, 1_000_000).default(1),
  pageSize: decimalIntegerText(1, AUDIT_PAGE_SIZE_MAX).default(20),
});

export const auditListSchema = z
  .object({ totalCount: z.number().int(), entries: z.array(auditEntrySchema) })
  .meta({ id: "AuditList" });
