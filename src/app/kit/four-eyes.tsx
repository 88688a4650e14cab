import { useCustom, type HttpError } from "@refinedev/core";
import { useQueryClient, type Query } from "@tanstack/react-query";
import { Alert, Form, Input } from "antd";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";

import {
  CHANGE_REASON_HEADER,
  FOUR_EYES_THRESHOLDS,
  isPendingApproval,
  type FourEyesDecl,
  type PendingApprovalAnswer,
} from "../../shared/kit/four-eyes";
import { remarkProblem, REMARK_INPUT } from "../../shared/kit/module";
import { formatRinggit } from "../../shared/money";
import { refreshChangeRequestCounts } from "./change-request-counts";

/**
 * Four eyes in the console (docs/four-eyes.md): what a declared action or form that needs a
 * second approver shows before it is sent (when it waits, and the maker's reason), how the reason
 * travels (the `x-change-reason` header, percent-encoded), and what staff are told when the
 * server answers 202 with the change request instead of the changed record.
 */

/** The name of the reason's input in a form (never part of the change's body). */
export const CHANGE_REASON_FIELD = "changeReason";

/** The header that carries the maker's reason, when it is given apart from the body. */
export const reasonHeaders = (reason: string | undefined): Record<string, string> | undefined =>
  reason && reason.trim() !== ""
    ? { [CHANGE_REASON_HEADER]: encodeURIComponent(reason.trim()) }
    : undefined;

/** The wallet policy in force, as far as four eyes reads it: its thresholds in sen. */
type PolicyThresholds = Partial<
  Record<(typeof FOUR_EYES_THRESHOLDS)[keyof typeof FOUR_EYES_THRESHOLDS], unknown>
>;

/**
 * The threshold (sen) above which a change declared `above` waits for a second approver, from
 * `GET /api/wallet-policy`: undefined while it loads, when the policy does not say, or when the
 * change waits every time (no `above`: nothing is read).
 */
export function useFourEyesThreshold(decl: FourEyesDecl | undefined): number | undefined {
  const above = decl?.above;
  const { query, result } = useCustom<PolicyThresholds, HttpError>({
    url: "/api/wallet-policy",
    method: "get",
    errorNotification: false,
    queryOptions: { enabled: above !== undefined, staleTime: 0 },
  });
  if (!above || !query.isSuccess) return undefined;
  const value = (result.data as PolicyThresholds | undefined)?.[FOUR_EYES_THRESHOLDS[above]];
  return typeof value === "number" ? value : undefined;
}

/**
 * Whether the change will wait for a second approver: always (no `above`), or when its amount is
 * above the threshold; undefined when that cannot be told yet (no amount typed, no threshold).
 */
export function needsApproval(
  decl: FourEyesDecl | undefined,
  amountSen: unknown,
  thresholdSen: number | undefined,
): boolean | undefined {
  if (!decl) return false;
  if (!decl.above) return true;
  if (thresholdSen === undefined || typeof amountSen !== "number") return undefined;
  return amountSen > thresholdSen;
}

/** The change's amount (sen) as the form or the record knows it, when the declaration names one. */
export function amountOf(
  decl: FourEyesDecl | undefined,
  body: Record<string, unknown> | undefined,
  record: Record<string, unknown> | undefined,
): unknown {
  const source = decl?.amount;
  if (!source) return undefined;
  return "body" in source ? body?.[source.body] : record?.[source.record];
}

/**
 * The notice above a change that needs a second approver: every time, or above the policy's
 * threshold (and whether this amount is above it, when the amount is known).
 */
export function FourEyesNotice({
  decl,
  amountSen,
  thresholdSen,
}: {
  decl: FourEyesDecl | undefined;
  amountSen?: unknown;
  thresholdSen: number | undefined;
}) {
  const { t } = useTranslation("kit");
  if (!decl) return null;
  if (!decl.above) {
    return (
      <Alert
        type="info"
        showIcon
        role="status"
        message={t("fourEyes.always")}
        style={{ marginBottom: 16 }}
      />
    );
  }
  if (thresholdSen === undefined) return null;
  const threshold = formatRinggit(thresholdSen);
  const waits = needsApproval(decl, amountSen, thresholdSen);
  return (
    <Alert
      type={waits ? "warning" : "info"}
      showIcon
      role="status"
      message={t("fourEyes.above", { threshold })}
      description={
        waits === undefined
          ? undefined
          : t(waits ? "fourEyes.amountAbove" : "fourEyes.amountNotAbove", {
              amount: formatRinggit(amountSen as number),
              threshold,
            })
      }
      style={{ marginBottom: 16 }}
    />
  );
}

/** Why a reason is refused, in the kit's words; undefined when it will do. */
export function reasonProblemText(t: TFunction, value: unknown): string | undefined {
  const problem = remarkProblem(typeof value === "string" ? value : "");
  if (!problem) return undefined;
  const key = { required: "Required", tooLong: "TooLong", invalid: "Invalid" }[problem];
  return String(t(`kit:fourEyes.reason${key}`, { max: REMARK_INPUT.max }));
}

/**
 * The maker's reason for the approver (1–500 characters after trimming, a remark's rules), for a
 * change that has no remark of its own to give it. Its value is sent as a header, never in the
 * body.
 */
export function ReasonInput({ autoFocus }: { autoFocus?: boolean }) {
  const { t } = useTranslation("kit");
  return (
    <Form.Item
      name={CHANGE_REASON_FIELD}
      label={t("fourEyes.reason")}
      extra={t("fourEyes.reasonHelp")}
      required
      rules={[
        {
          validator: (_, value: unknown) => {
            const problem = reasonProblemText(t, value);
            return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
          },
        },
      ]}
    >
      <Input.TextArea
        rows={3}
        autoFocus={autoFocus}
        placeholder={t("fourEyes.reasonPlaceholder")}
        count={{ show: true, max: REMARK_INPUT.max, strategy: (value) => value.trim().length }}
      />
    </Form.Item>
  );
}

/** What the maker is told once a change waits for its checker (one, or several of a bulk run). */
export function pendingText(t: TFunction, answers: readonly PendingApprovalAnswer[]): string {
  return answers.length === 1
    ? String(t("kit:fourEyes.pending", { reference: answers[0]!.changeRequest.reference }))
    : String(t("kit:fourEyes.pendingBulk", { count: answers.length }));
}

/** The answers among `answers` that are changes waiting for a second approver. */
export const pendingAnswers = (answers: readonly unknown[]): PendingApprovalAnswer[] =>
  answers.filter(isPendingApproval);

/** Queries of the change requests (their list, a record's panel). */
const isChangeRequestQuery = (query: Query) =>
  JSON.stringify(query.queryKey).includes("change-requests");

/**
 * Refreshes what shows change requests once one was made or decided: their lists and panels,
 * and the counts of the menu and the dashboard.
 */
export function useRefreshChangeRequests() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ predicate: isChangeRequestQuery }),
      refreshChangeRequestCounts(),
    ]).then(() => undefined);
}
