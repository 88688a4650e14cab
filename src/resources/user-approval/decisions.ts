import { useCustomMutation, useInvalidate, type HttpError } from "@refinedev/core";
import { useQueryClient, type Query } from "@tanstack/react-query";
import { useState } from "react";
import type { DecisionBody, UserDto } from "../../providers/api-types";
import { toApiError, translateApiError, type Translate } from "../../providers/errors";
import { REMARK_MAX_LENGTH } from "../../shared/user-actions";
import { approvalActionUrl } from "./paths";

export type ApprovalAction = DecisionBody["action"];

/** Why a remark cannot be sent (a translation key in `approval`), or undefined when it can. */
export function remarkProblem(remark: string | undefined): "required" | "tooLong" | undefined {
  const length = (remark ?? "").trim().length;
  if (length === 0) return "required";
  if (length > REMARK_MAX_LENGTH) return "tooLong";
  return undefined;
}

export interface DecisionFailure {
  user: UserDto;
  error: unknown;
}

export interface DecisionOutcome {
  action: ApprovalAction;
  total: number;
  succeeded: UserDto[];
  failures: DecisionFailure[];
}

export interface DecisionProgress {
  done: number;
  total: number;
}

const APPROVAL_STATUSES = new Set(["pending", "approved", "rejected"]);

function decidedStatusOf(data: unknown): string | undefined {
  if (typeof data !== "object" || data === null || !("approvalStatus" in data)) return undefined;
  const status = (data as { approvalStatus: unknown }).approvalStatus;
  return typeof status === "string" && APPROVAL_STATUSES.has(status) ? status : undefined;
}

/**
 * A failed decision in the staff member's words: the conflicts this page expects (someone else
 * decided first, the user is gone) in its own texts, everything else as the console says it.
 */
export function decisionErrorText(error: unknown, t: Translate): string {
  const apiError = toApiError(error);
  if (apiError.kind === "coded" && apiError.code === "ALREADY_DECIDED") {
    const status = decidedStatusOf(apiError.data);
    return status
      ? t("approval:errors.ALREADY_DECIDED", { status: t(`users:approvalStatus.${status}`) })
      : t("approval:errors.ALREADY_DECIDED_unknown");
  }
  if (apiError.kind === "coded" && apiError.code === "NOT_FOUND") {
    return t("approval:errors.NOT_FOUND");
  }
  return translateApiError(apiError, t);
}

/** Whether a failure was explained by the server with a code (the page shows those itself). */
export const isCodedFailure = (error: unknown) => toApiError(error).kind === "coded";

/** The dashboard's figures (pending approvals among them) are read from /api/dashboard/*. */
const isDashboardQuery = (query: Query) =>
  query.queryKey.some(
    (part) =>
      typeof part === "object" &&
      part !== null &&
      "url" in part &&
      typeof part.url === "string" &&
      part.url.startsWith("/api/dashboard"),
  );

/**
 * Decides users one after another (`PATCH /api/users/{id}/approval-action`), so a bulk decision
 * reports each user's fate; then refreshes the pending list, every users query and the dashboard.
 */
export function useApprovalDecisions() {
  const { mutateAsync } = useCustomMutation<UserDto, HttpError, DecisionBody>();
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<DecisionProgress>();

  const decide = async (
    users: readonly UserDto[],
    action: ApprovalAction,
    remark: string,
  ): Promise<DecisionOutcome> => {
    const values: DecisionBody = { action, remark: remark.trim() };
    const outcome: DecisionOutcome = { action, total: users.length, succeeded: [], failures: [] };
    try {
      for (const [index, user] of users.entries()) {
        setProgress({ done: index + 1, total: users.length });
        try {
          await mutateAsync({
            url: approvalActionUrl(user.id),
            method: "patch",
            values,
            // The dialog reports the outcome of the whole run; no toast per user.
            successNotification: false,
            errorNotification: false,
          });
          outcome.succeeded.push(user);
        } catch (error) {
          outcome.failures.push({ user, error });
        }
      }
    } finally {
      setProgress(undefined);
      // Decided users leave the pending list; the user pages and the dashboard show the news.
      await Promise.all([
        invalidate({ resource: "user-approval", invalidates: ["list"] }),
        invalidate({ resource: "users", invalidates: ["all"] }),
        queryClient.invalidateQueries({ predicate: isDashboardQuery }),
      ]);
    }
    return outcome;
  };

  return { decide, progress };
}
