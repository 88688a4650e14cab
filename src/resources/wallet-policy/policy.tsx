import { useCustom, type HttpError } from "@refinedev/core";
import { Descriptions, Skeleton } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import { renderCell } from "../../app/kit/cells";
import { fieldLabel } from "../../app/kit/texts";
import { walletPolicies, type WalletPolicyDto } from "../../shared/modules/wallet-policies";

/** The limits a policy sets (its inputs but the remark), in the order the form has them. */
export const POLICY_LIMITS = [
  "minTopUpSen",
  "maxTopUpSen",
  "dailyTopUpLimitSen",
  "maxBalanceSen",
  "dailyPaymentLimitSen",
  "dormancyDays",
  // Four eyes: above these a counter top-up or a refund waits for a second approver.
  "fourEyesTopUpAboveSen",
  "fourEyesRefundAboveSen",
  // And the changes it applies at once, without a second approver.
  "fourEyesOff",
] as const;

/**
 * The policy in force (`GET /api/wallet-policy`), read afresh on every visit: the policy once it
 * has arrived (useCustom answers `{}` before), or the error state with its Retry.
 */
export function usePolicyInForce(): { policy?: WalletPolicyDto; failure?: ReactNode } {
  const { t } = useTranslation("walletPolicy");
  const { query, result } = useCustom<WalletPolicyDto, HttpError>({
    url: "/api/wallet-policy",
    method: "get",
    errorNotification: false,
    queryOptions: { staleTime: 0 },
  });
  if (query.isError) {
    return { failure: <QueryError query={query} title={t("inForce.loadFailed")} /> };
  }
  return { policy: query.isSuccess ? (result.data as WalletPolicyDto) : undefined };
}

/** The policy in force as a panel: its limits, since when, and who set it. */
export function PolicyInForce({ title, narrow }: { title: string; narrow?: boolean }) {
  const { t } = useTranslation(["walletPolicy", "kit"]);
  const { policy, failure } = usePolicyInForce();
  if (failure) return failure;
  return (
    <Panel title={title}>
      {!policy ? (
        <Skeleton active />
      ) : (
        <Descriptions column={narrow ? 1 : { xs: 1, md: 2, xl: 3 }} bordered size="small">
          {[...POLICY_LIMITS, "createdAt" as const, "adminName" as const].map((field) => (
            <Descriptions.Item key={field} label={fieldLabel(t, walletPolicies, field)}>
              {renderCell(t, walletPolicies, field, policy[field], policy)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
    </Panel>
  );
}
