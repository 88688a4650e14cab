import { Flex } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import {
  ActionButtons,
  DecisionDialog,
  type DecisionOutcome,
  type DecisionRequest,
} from "../../../app/kit/decision";
import type { UserDetail } from "../../../providers/api-types";
import { users } from "../../../shared/modules/users";
import { ResetPassword } from "./reset-password";

type Row = { id: number } & Record<string, unknown>;
type UserAction = keyof typeof users.actions;

/**
 * Some of the users declaration's actions on one user, drawn with the kit's buttons and dialogs
 * (as on the list): each panel of the detail page draws its own. `row` is the user with the
 * facts those actions change (an agent's terms, a rider's verification) over it.
 */
export function UserActionButtons({
  row,
  only,
  onDecided,
}: {
  row: Row;
  only: readonly UserAction[];
  /** After each run of the dialog (the kit has already refetched the users' queries). */
  onDecided: (outcome: DecisionOutcome) => void;
}) {
  const [request, setRequest] = useState<DecisionRequest>();
  const action = request && users.actions[request.action as UserAction];
  return (
    <>
      <ActionButtons module={users} row={row} size="middle" only={only} onDecide={setRequest} />
      {request && action && (
        <DecisionDialog
          module={users}
          action={action}
          request={request}
          onDecided={onDecided}
          onClose={() => setRequest(undefined)}
        />
      )}
    </>
  );
}

/**
 * What staff can do to a user: ban or unban, VIP on or off and the URL; the password reset
 * e-mails a link and changes no user, so it keeps its own confirmation.
 */
export function ActionsPanel({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  return (
    <Panel title={t("actions.title")}>
      <Flex gap={8} wrap>
        <UserActionButtons
          row={user as unknown as Row}
          only={["ban", "vip", "url"]}
          onDecided={(outcome) => {
            if (outcome.succeeded.length > 0) onChanged();
          }}
        />
        <ResetPassword user={user} onChanged={onChanged} />
      </Flex>
    </Panel>
  );
}
