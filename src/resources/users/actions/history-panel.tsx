import type { BaseKey } from "@refinedev/core";

import { RecordHistory } from "../../../app/kit/history-panel";
import { users } from "../../../shared/modules/users";
import { auditPath } from "./requests";

/** The history of staff actions on one user (the kit's record history, in the users' words). */
export function HistoryPanel({ userId, version }: { userId: BaseKey; version: number }) {
  return <RecordHistory url={auditPath(userId)} module={users} version={version} />;
}
