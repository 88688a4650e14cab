/**
 * The bodies of a rider's verification: the users module's action and the seed's call. Apart from
 * ./riders.ts, which reads the users declaration, so that the declaration can read these.
 */
import { z } from "zod";

import { VERIFICATION_REMARKS_MAX_LENGTH } from "../riders";
import { safeMultilineText } from "../text";
import { accountNumberSchema } from "./common";

const remarksSchema = safeMultilineText().trim().max(VERIFICATION_REMARKS_MAX_LENGTH);

/** Remarks explain a rejection to the rider, so they are required there; optional on approval. */
export const riderVerificationBodySchema = z.discriminatedUnion("action", [
  z.strictObject({
    account_number: accountNumberSchema,
    action: z.literal("Approved"),
    remarks: remarksSchema.nullish(),
  }),
  z.strictObject({
    account_number: accountNumberSchema,
    action: z.literal("Rejected"),
    remarks: remarksSchema.min(1, "Required when rejecting"),
  }),
]);
export type RiderVerificationBody = z.output<typeof riderVerificationBodySchema>;

/**
 * The users module's rider-verification action (PATCH /api/users/{id}/rider-verification): the
 * decision and the remark the rider is told, required when rejecting.
 */
export const riderDecisionBodySchema = z
  .discriminatedUnion("action", [
    z.strictObject({ action: z.literal("Approved"), remark: remarksSchema.min(1).optional() }),
    z.strictObject({
      action: z.literal("Rejected"),
      remark: remarksSchema.min(1, "Required when rejecting"),
    }),
  ])
  .meta({ id: "RiderDecisionBody" });
export type RiderDecisionBody = z.output<typeof riderDecisionBodySchema>;
