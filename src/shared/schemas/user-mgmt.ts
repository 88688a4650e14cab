import { z } from "zod";

import { decimalIntegerText, safeText } from "../text";

import { BUYER_SEARCH_MIN_LENGTH } from "../user-actions";
import { APPROVAL_STATUSES, USER_ROLES } from "../domain";
import { banRemarkSchema, requireRemarkWhenBanning } from "./user-actions";

/** A user as the /user-mgmt calls show it: snake_case, as that contract names its fields. */
export const mgmtUserSchema = z
  .object({
    id: z.number().int(),
    account_number: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    role: z.enum(USER_ROLES),
    approval_status: z.enum(APPROVAL_STATUSES),
    is_banned: z.boolean(),
    is_vip: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "MgmtUser" });
export type MgmtUser = z.output<typeof mgmtUserSchema>;

export const MGMT_PAGE_SIZE_MAX = 100;

/** `role` is required; pages of at most 100 users, newest first. */
export const roleListQuerySchema = z.strictObject({
  role: z.enum(USER_ROLES),
  page: decimalIntegerText(1, 1_000_000).default(1),
  page_size: decimalIntegerText(1, MGMT_PAGE_SIZE_MAX).default(MGMT_PAGE_SIZE_MAX),
});

export const mgmtUserPageSchema = z
  .object({
    total_count: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    users: z.array(mgmtUserSchema),
  })
  .meta({ id: "MgmtUserPage" });

const accountNumberSchema = safeText().trim().min(1, "Account number is required").max(64);

export const mgmtBanBodySchema = requireRemarkWhenBanning(
  z.strictObject({
    account_number: accountNumberSchema,
    ban: z.boolean(),
    remark: banRemarkSchema,
  }),
);

export const resetPasswordBodySchema = z.strictObject({ account_number: accountNumberSchema });
export const resetPasswordResponseSchema = z.object({
  status: z.literal("sent"),
  expires_at: z.string().describe("When the e-mailed link stops working (ISO-8601)"),
});

export const setVipBodySchema = z.strictObject({
  account_number: accountNumberSchema,
  is_vip: z.boolean(),
});

export const searchBuyerQuerySchema = z.strictObject({
  search: safeText()
    .trim()
    .min(BUYER_SEARCH_MIN_LENGTH, `Search needs at least ${BUYER_SEARCH_MIN_LENGTH} characters`)
    .max(200),
});
export const searchBuyerResponseSchema = z.object({ users: z.array(mgmtUserSchema) });
