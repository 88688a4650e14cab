import { z } from "zod";

import { aggregationListSchema } from "../kit/list";
import { users } from "../modules/users";

import { RIDER_VERIFICATION_STATUSES, WALLET_STATUSES } from "../domain";

/** A wallet account holder as the API shows it (docs/domain.md): the users module's record. */
export const userDtoSchema = users.item;

export type UserDto = z.output<typeof userDtoSchema>;
export type UserRole = UserDto["role"];
export type ApprovalStatus = UserDto["approvalStatus"];

export const userListSchema = aggregationListSchema("users", userDtoSchema);
export type UserList = z.output<typeof userListSchema>;

export const userWalletSchema = z
  .object({
    balanceSen: z.number().int().describe("Balance in sen (RM 1 = 100 sen)"),
    status: z.enum(WALLET_STATUSES),
  })
  .meta({ id: "UserWallet" });
export type UserWallet = z.output<typeof userWalletSchema>;
export type WalletStatus = UserWallet["status"];

export const riderFactsSchema = z
  .object({
    vehicleType: z.string(),
    plate: z.string(),
    licenceNumber: z.string(),
    verificationStatus: z.enum(RIDER_VERIFICATION_STATUSES),
    verificationRemarks: z.string().nullable(),
  })
  .meta({ id: "RiderFacts" });
export type RiderFacts = z.output<typeof riderFactsSchema>;
export type RiderVerificationStatus = RiderFacts["verificationStatus"];

export const agentFactsSchema = z
  .object({
    agentType: z.string(),
    commissionRateBp: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .describe("Commission in basis points (100 bp = 1 %)"),
  })
  .meta({ id: "AgentFacts" });
export type AgentFacts = z.output<typeof agentFactsSchema>;

/**
 * One user with what the detail page shows beside the profile. The role-specific facts are null
 * when the user has none (every role but rider, respectively agent).
 */
export const userDetailSchema = userDtoSchema
  .extend({
    wallet: userWalletSchema.nullable().describe("Null when no wallet was opened yet"),
    rider: riderFactsSchema.nullable(),
    agent: agentFactsSchema.nullable(),
  })
  .meta({ id: "UserDetail" });
export type UserDetail = z.output<typeof userDetailSchema>;
