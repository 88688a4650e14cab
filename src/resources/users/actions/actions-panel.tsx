import { Flex } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import { ActionButtons, DecisionDialog, type DecisionRequest } from "../../../app/kit/decision";
import type { UserDetail } from "../../../providers/api-types";
import { users } from "../../../shared/modules/users";
import { ResetPassword } from "./reset-password";

type Row = { id: number } & Record<string, unknown>;

/**
 * What staff can do to a user: ban or unban, VIP on or off and the URL are the users
 * declaration's actions, drawn with the kit's buttons and dialogs (as on the list, one by one);
 * the password reset e-mails a link and changes no user, so it keeps its own confirmation.
 */
export function ActionsPanel({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  const [request, setRequest] = useState<DecisionRequest>();
  const row = user as unknown as Row;
  return (
    <Panel title={t("actions.title")}>
      <Flex gap={8} wrap>
        <ActionButtons module={users} row={row} size="middle" onDecide={setRequest} />
        <ResetPassword user={user} onChanged={onChanged} />
      </Flex>
      {request && users.actions[request.action as keyof typeof users.actions] && (
        <DecisionDialog
          module={users}
          action={users.actions[request.action as keyof typeof users.actions]}
          request={request}
          onDecided={(outcome) => {
            if (outcome.succeeded.length > 0) onChanged();
          }}
          onClose={() => setRequest(undefined)}
        />
      )}
    </Panel>
  );
}
