/**
 * Four eyes (maker-checker): what a module declares of an action or a form that needs a second
 * approver, and the words both readers share. The server turns such a change into a change
 * request instead of applying it (server/kit/four-eyes.ts); another administrator approves it
 * (the change-requests module) and only then is it applied. docs/four-eyes.md tells the whole
 * story.
 */
import { z } from "zod";

import type { PermissionCode } from "../permissions";

/**
 * The wallet policy's thresholds (its versioned fields, in sen): a change whose amount is above
 * the one it names waits for a second approver; at or below it applies at once.
 */
export const FOUR_EYES_THRESHOLDS = {
  topUp: "fourEyesTopUpAboveSen",
  refund: "fourEyesRefundAboveSen",
} as const;
export type FourEyesThreshold = keyof typeof FOUR_EYES_THRESHOLDS;

/** What a threshold is when no policy version has set it (RM 200). */
export const DEFAULT_FOUR_EYES_ABOVE_SEN = 20_000;

/** How long a change request waits for its checker by default. */
export const DEFAULT_REQUEST_HOURS = 24;

/** Where a change's amount (sen) is read: a key of its body, or a field of its record. */
export type AmountSource = { body: string } | { record: string };

/**
 * A declared action's or form's need for a second approver: every change (no `above`), or those
 * whose amount is above the wallet policy's threshold `above`.
 */
export interface FourEyesDecl {
  above?: FourEyesThreshold;
  /** The change's amount, shown to the checker and compared again at approval. */
  amount?: AmountSource;
  /** A code the checker must hold beside the module's (a finance checker), when one is named. */
  checkerPermission?: PermissionCode;
  /** Hours a request waits before it expires (default 24). */
  expiresInHours?: number;
  /**
   * Applied at once when no other active administrator could check it: the first administrator
   * of a new installation adding the second (who then checks everything after). Never on money.
   */
  unlessNoChecker?: true;
}

/** A change request's states; `expired` is a pending one past its time. */
export const CHANGE_REQUEST_STATUSES = [
  "pending",
  "approved",
  "rejected",
  "withdrawn",
  "expired",
] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

/**
 * The reason a maker gives for a change that needs a second approver, when the change's body has
 * no remark of its own: this header, its text percent-encoded as UTF-8 (headers carry bytes of
 * one script only; Discord's `X-Audit-Log-Reason` does the same).
 */
export const CHANGE_REASON_HEADER = "x-change-reason";

/** What a change that waits for a second approver answers (202) instead of the record. */
export const pendingApprovalAnswer = z
  .object({
    status: z.literal("pending_approval"),
    changeRequest: z.object({
      id: z.number().int(),
      reference: z.string(),
      status: z.enum(CHANGE_REQUEST_STATUSES),
      reason: z.string(),
      amountSen: z.number().int().nullable(),
      expiresAt: z.string(),
    }),
  })
  .meta({ id: "PendingApproval" });
export type PendingApprovalAnswer = z.infer<typeof pendingApprovalAnswer>;

/** Whether an answer is a change waiting for its checker rather than the changed record. */
export const isPendingApproval = (value: unknown): value is PendingApprovalAnswer =>
  typeof value === "object" &&
  value !== null &&
  (value as { status?: unknown }).status === "pending_approval";
