import { ModuleList } from "../../app/kit/module-list";
import { businessApproval } from "../../shared/modules/businesses";
import { DecisionDocuments } from "../businesses/documents-panel";

/** The pending businesses; deciding one shows its documents and what is missing. */
export default function BusinessApprovalList() {
  return (
    <ModuleList
      module={businessApproval}
      describe={(row) => <DecisionDocuments businessId={row.id} />}
    />
  );
}
