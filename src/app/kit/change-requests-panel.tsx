import { useTable } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { useTranslation } from "react-i18next";

import type { ModuleDecl } from "../../shared/kit/module";
import { changeRequests } from "../../shared/modules/change-requests";
import { ListTable } from "../components/list-table";
import { Panel } from "../components/panel";
import { fieldColumns } from "./columns";

type Row = { id: number } & Record<string, unknown>;

const PAGE_SIZE = 5;

/** What the panel shows of each request, in this order. */
const SHOWN = ["reference", "status", "makerName", "reason", "createdAt"] as const;

/** Whether any of a module's changes waits for a second approver (an action's or a form's). */
export const hasFourEyes = (module: ModuleDecl) =>
  Object.values(module.actions).some((action) => action.fourEyes !== undefined) ||
  module.create?.fourEyes !== undefined ||
  module.edit?.fourEyes !== undefined;

/**
 * The change requests of one record (four eyes) on its detail page: open and recent ones, newest
 * first, each linked to its own page, from `GET /api/change-requests/aggregation` filtered to the
 * module and the record. The list shows what the signed-in administrator may see of them.
 */
export function ChangeRequestsPanel({ module, id }: { module: ModuleDecl; id: number }) {
  const { t } = useTranslation([changeRequests.i18n, "kit"]);
  const { tableProps, tableQuery, sorters } = useTable<Row, HttpError>({
    // Its own cache entry, apart from the change requests' list (a query key naming
    // change-requests, so that a decision or a new request refreshes it).
    resource: `change-requests.of.${module.name}`,
    meta: {
      listPath: `/api/${changeRequests.collection}/aggregation`,
      listKey: changeRequests.queryName,
    },
    pagination: { pageSize: PAGE_SIZE },
    filters: {
      permanent: [
        { field: "module", operator: "eq", value: module.name },
        { field: "recordId", operator: "between", value: [id, id] },
      ],
    },
    sorters: { initial: [{ field: "createdAt", order: "desc" }] },
    syncWithLocation: false,
    errorNotification: false,
  });
  const cells = {
    ...changeRequests,
    fields: Object.fromEntries(
      SHOWN.map((field) => [field, { ...changeRequests.fields[field]!, list: true, sort: false }]),
    ),
  };
  return (
    <Panel title={t("changeRequests:panel.title")}>
      <ListTable<Row>
        namespace={changeRequests.i18n}
        query={tableQuery}
        tableProps={{ ...tableProps, size: "small" }}
        filtered={false}
      >
        {fieldColumns(t, cells, sorters)}
      </ListTable>
    </Panel>
  );
}
