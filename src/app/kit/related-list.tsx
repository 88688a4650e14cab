import { useTable } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

import type { ModuleDecl, RelatedDecl } from "../../shared/kit/module";
import { ListTable } from "../components/list-table";
import { Panel } from "../components/panel";
import { csvHeader, csvText } from "./cells";
import { fieldColumns } from "./columns";
import { ExportButton } from "./export-button";
import { filtersOf, isFiltered, ModuleFilters, searchOf, type ListSearch } from "./filters";
import { moduleText } from "./texts";

type Row = { id: number } & Record<string, unknown>;

const PAGE_SIZE = 10;

/**
 * A related list on a record's detail page (`GET /api/{collection}/{id}/{path}`): its fields
 * marked `list` as columns, sortable where declared, its declared filters above them, paged on
 * the server, and a CSV of the filtered rows when fields are marked `export`. Its page, sort and
 * filters stay on the page: the URL belongs to the record. `extra` goes beside the export (a
 * screen's own button: a wallet's printable statement).
 */
export function RelatedList({
  module,
  name,
  list,
  id,
  extra,
}: {
  module: ModuleDecl;
  name: string;
  list: RelatedDecl;
  id: number;
  extra?: ReactNode;
}) {
  const { t } = useTranslation([list.i18n, module.i18n, "kit"]);
  // The list as a module of its own for the kit's cells, filters and CSV: its words and fields,
  // links to other records as anywhere else. Nothing is fixed or preset.
  const cells: ModuleDecl = {
    ...module,
    name: list.queryName,
    i18n: list.i18n,
    fields: list.fields,
    fixedFilters: undefined,
    initialFilters: undefined,
  };
  const [firstSort] = list.defaultSort;
  const listPath = `/api/${module.collection}/${id}/${list.path}`;
  const { tableProps, tableQuery, sorters, filters, searchFormProps } = useTable<
    Row,
    HttpError,
    ListSearch
  >({
    // Its own cache entry: the module's list and this record's rows are different lists.
    resource: `${module.name}.${name}`,
    meta: { listPath, listKey: list.queryName },
    pagination: { pageSize: PAGE_SIZE },
    sorters: { initial: firstSort ? [{ field: firstSort[0], order: firstSort[1] }] : [] },
    onSearch: (values) => filtersOf(cells, values),
    syncWithLocation: false,
    errorNotification: false,
  });
  const search = searchOf(cells, filters);
  const exported = Object.entries(list.fields).filter(([, decl]) => decl.export);
  const exportButton =
    exported.length > 0 ? (
      <ExportButton<Row>
        namespace={list.i18n}
        resource={`${module.name}.${name}`}
        meta={{ listPath, listKey: list.queryName }}
        filters={filters}
        sorters={sorters}
        filePrefix={`${module.collection}-${id}-${list.path}`}
        columns={() =>
          exported.map(([field]) => ({
            header: csvHeader(t, cells, field),
            value: (row: Row) => csvText(t, cells, field, row[field], row),
          }))
        }
      />
    ) : null;
  return (
    <Panel
      title={moduleText(t, module)(`related.${name}`)}
      extra={
        extra || exportButton ? (
          <>
            {extra}
            {exportButton}
          </>
        ) : undefined
      }
    >
      <ModuleFilters module={cells} formProps={searchFormProps} initialValues={search} />
      <ListTable<Row>
        namespace={list.i18n}
        query={tableQuery}
        tableProps={tableProps}
        filtered={isFiltered(cells, search)}
      >
        {fieldColumns(t, cells, sorters)}
      </ListTable>
    </Panel>
  );
}
