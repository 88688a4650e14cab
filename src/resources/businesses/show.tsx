import { useState } from "react";

import { ModuleShow } from "../../app/kit/generated-show";
import { ActionButtons, DecisionDialog, type DecisionRequest } from "../../app/kit/decision";
import type { ModuleDecl } from "../../shared/kit/module";
import { businessApproval, businesses } from "../../shared/modules/businesses";
import { BusinessDocumentsPanel, DecisionDocuments } from "./documents-panel";

type Row = { id: number } & Record<string, unknown>;

/**
 * Approve or reject a pending business from its own page: the approval queue's decision
 * (Business > Approval), its dialog showing the business's documents.
 */
function ApprovalButtons({ row, refetch }: { row: Row; refetch: () => void }) {
  const [request, setRequest] = useState<DecisionRequest>();
  const action = request ? (businessApproval as ModuleDecl).actions[request.action] : undefined;
  return (
    <>
      <ActionButtons module={businessApproval} row={row} size="middle" onDecide={setRequest} />
      {request && action && (
        <DecisionDialog
          module={businessApproval}
          action={action}
          request={request}
          describe={(decided) => <DecisionDocuments businessId={decided.id} />}
          onDecided={refetch}
          onClose={() => setRequest(undefined)}
        />
      )}
    </>
  );
}

/** A business's detail page: its fields, its documents beside the approval decision. */
export default function BusinessShow() {
  return (
    <ModuleShow
      module={businesses}
      headerExtra={(row, refetch) => <ApprovalButtons row={row} refetch={refetch} />}
      after={(row) => (
        <div style={{ marginTop: 16 }}>
          <BusinessDocumentsPanel businessId={row.id} />
        </div>
      )}
    />
  );
}
