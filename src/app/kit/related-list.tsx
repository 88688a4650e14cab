import { useTable } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { useTranslation } from "react-i18next";

import type { ModuleDecl, RelatedDecl } from "../../shared/kit/module";
import { ListTable } from "../components/list-table";
import { Panel } from "../components/panel";
import { fieldColumns } from "./columns";
import { moduleText } from "./texts";

type Row = { id: number } & Record<string, unknown>;

const PAGE_SIZE = 10;

/**
 * A related list on a record's detail page (`GET /api/{collection}/{id}/{path}`): its fields
 * marked `list` as columns, sortable where declared, paged on the server. Its page and sort stay
 * on the page: the URL belongs to the record.
 */
export function RelatedList({
  module,
  name,
  list,
  id,
}: {
  module: ModuleDecl;
  name: string;
  list: RelatedDecl;
  id: number;
}) {
  const { t } = useTranslation([list.i18n, module.i18n, "kit"]);
  const [firstSort] = list.defaultSort;
  const { tableProps, tableQuery, sorters } = useTable<Row, HttpError>({
    // Its own cache entry: the module's list and this record's rows are different lists.
    resource: `${module.name}.${name}`,
    meta: {
      listPath: `/api/${module.collection}/${id}/${list.path}`,
      listKey: list.queryName,
    },
    pagination: { pageSize: PAGE_SIZE },
    sorters: { initial: firstSort ? [{ field: firstSort[0], order: firstSort[1] }] : [] },
    syncWithLocation: false,
    errorNotification: false,
  });
  // Cells read the list's own words and fields, links to other records as anywhere else.
  const cells = { ...module, name: list.queryName, i18n: list.i18n, fields: list.fields };
  return (
    <Panel title={moduleText(t, module)(`related.${name}`)}>
      <ListTable<Row>
        namespace={list.i18n}
        query={tableQuery}
        tableProps={tableProps}
        filtered={false}
      >
        {fieldColumns(t, cells, sorters)}
      </ListTable>
    </Panel>
  );
}
