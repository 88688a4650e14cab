import { z } from "zod";

import { aggregationListSchema } from "../aggregation/route";

import {
  APPROVAL_STATUSES,
  RIDER_VERIFICATION_STATUSES,
  USER_ROLES,
  WALLET_STATUSES,
} from "../db/schema";
import { isoDateTime } from "./common";

/** A wallet account holder as the API shows it (domain.md, "People"). */
export const userDtoSchema = z
  .object({
    id: z.number().int(),
    accountNumber: z.string().describe("Unique, human-readable account number"),
    name: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    role: z.enum(USER_ROLES),
    approvalStatus: z.enum(APPROVAL_STATUSES),
    approvalRemark: z.string().nullable(),
    isBanned: z.boolean(),
    banRemark: z.string().nullable(),
    isVip: z.boolean(),
    url: z.string().nullable(),
    lastActiveAt: isoDateTime.nullable().describe("Drives dormancy; null before first activity"),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "UserDto" });

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
