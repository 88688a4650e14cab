import { formatDate } from "../../app/format";
import { ModuleList } from "../../app/kit/module-list";
import { NoWrap } from "../../app/kit/cells";
import { RecordLink } from "../../app/kit/record-link";
import { reconciliation } from "../../shared/modules/reconciliation";

/** The reconciled days, each day (a date, not an instant) linked to its page. */
export default function ReconciliationList() {
  return (
    <ModuleList
      module={reconciliation}
      render={{
        day: (value, row) => (
          <RecordLink to={reconciliation} id={String(row.id)}>
            <NoWrap>{formatDate(String(value))}</NoWrap>
          </RecordLink>
        ),
      }}
    />
  );
}
