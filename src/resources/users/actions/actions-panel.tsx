import { useTranslation } from "react-i18next";
import { Panel } from "../../../app/components/panel";
import { RecordActions, type DecisionOutcome } from "../../../app/kit/decision";
import type { UserDetail } from "../../../providers/api-types";
import { users } from "../../../shared/modules/users";

type Row = { id: number } & Record<string, unknown>;
type UserAction = keyof typeof users.actions;

/**
 * Some of the users declaration's actions on one user (RecordActions): each panel of the detail
 * page draws its own. `row` is the user with the facts those actions change (an agent's terms, a
 * rider's verification) over it.
 */
export function UserActionButtons({
  row,
  only,
  onDecided,
}: {
  row: Row;
  only: readonly UserAction[];
  onDecided: (outcome: DecisionOutcome) => void;
}) {
  return <RecordActions module={users} row={row} only={only} onDecided={onDecided} />;
}

/**
 * What staff can do to a user: ban or unban, VIP on or off, the URL, and the password reset (a
 * link e-mailed to the user, which changes no user).
 */
export function ActionsPanel({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  return (
    <Panel title={t("actions.title")}>
      <UserActionButtons
        row={user as unknown as Row}
        only={["ban", "vip", "url", "passwordReset"]}
        onDecided={(outcome) => {
          if (outcome.succeeded.length > 0) onChanged();
        }}
      />
    </Panel>
  );
}
