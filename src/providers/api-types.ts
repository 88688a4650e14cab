/**
 * API payload types for the console, taken from the server's zod schemas (the one source of
 * truth, also published as OpenAPI). Type-only: no server code ever reaches the browser bundle.
 */
import type { z } from "zod";

import type { loginResponseSchema } from "../../server/schemas/auth";
import type { changePasswordBodySchema } from "../../server/schemas/account";

export type {
  AdminDto,
  AdminLanguage,
  AdminStatus,
  AdministratorList,
  CreateAdministratorBody,
  UpdateAdministratorBody,
} from "../../server/schemas/administrators";
export type { UpdateAccountBody } from "../../server/schemas/account";
export type { LoginBody } from "../../server/schemas/auth";
export type { ChangeContactSubmissionDto } from "../shared/modules/change-contact";
export type { DashboardSummary } from "../../server/schemas/dashboard";
export type {
  AgentFacts,
  ApprovalStatus,
  RiderFacts,
  RiderVerificationStatus,
  UserDetail,
  UserDto,
  UserList,
  UserRole,
  UserWallet,
  WalletStatus,
} from "../../server/schemas/users";
export type { RiderAttendance, RiderDetails } from "../../server/schemas/riders";
export type { AuditEntryDto as AuditEntry } from "../../server/schemas/user-actions";
export type { DecisionBody } from "../../server/schemas/user-actions";
/** The contract's error body, `{ code?, message, data? }`. */
export type { ErrorBody as ApiErrorBody } from "../../server/schemas/common";

/** `POST /api/auth/login` answer. */
export type LoginResponse = z.output<typeof loginResponseSchema>;
/** `POST /api/account/password` body. */
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;
