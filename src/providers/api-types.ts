/**
 * API payload types for the console, taken from the zod schemas shared with the server
 * (src/shared/schemas and the module declarations: the one source of truth, also published as
 * OpenAPI). Nothing here imports the server.
 */
import type { z } from "zod";

import type { loginResponseSchema } from "../shared/schemas/auth";

export type {
  AdminDto,
  AdminLanguage,
  AdminStatus,
  AdministratorList,
  CreateAdministratorBody,
  UpdateAdministratorBody,
} from "../shared/schemas/administrators";
export type { UpdateAccountBody } from "../shared/schemas/account";
export type {
  LoginBody,
  SecondFactorMethod,
  SessionState,
  SignedIn,
  StepUpMethod,
} from "../shared/schemas/auth";
export type { ChangeContactSubmissionDto } from "../shared/modules/change-contact";
export type { DashboardSummary } from "../shared/schemas/dashboard";
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
} from "../shared/schemas/users";
export type { RiderAttendance, RiderDetails } from "../shared/schemas/riders";
export type { AuditEntryDto as AuditEntry } from "../shared/schemas/user-actions";
export type { DecisionBody } from "../shared/schemas/user-actions";
/** The contract's error body, `{ code?, message, data? }`. */
export type { ErrorBody as ApiErrorBody } from "../shared/schemas/common";

/** `POST /api/auth/login` answer. */
export type LoginResponse = z.output<typeof loginResponseSchema>;
