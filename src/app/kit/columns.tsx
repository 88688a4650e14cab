import { getDefaultSortOrder } from "@refinedev/antd";
import type { CrudSort } from "@refinedev/core";
import { Table } from "antd";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";

import type { LinkedModule } from "../../shared/kit/module";
import { renderCell } from "./cells";
import { fieldLabel } from "./texts";

type Row = { id: number } & Record<string, unknown>;

/** How many of a list's first columns a phone shows. */
const PHONE_COLUMNS = 2;

/**
 * The columns of a list's fields marked `list`: labelled, sized and sortable as declared, each
 * cell drawn by its display kind unless `render` draws it. On a phone (below antd's `md`, 768 px)
 * only the columns that say which record a row is show: the first two (a module lists them first:
 * the UCSI ID and its holder, the business and its changes) and the row's title.
 */
export function fieldColumns(
  t: TFunction,
  module: LinkedModule & { titleField?: string },
  sorters: CrudSort[],
  render: Record<string, (value: unknown, row: Row) => ReactNode> = {},
  /** The columns chosen (in order) and their widths (column-settings.tsx); absent: as declared. */
  chosen?: { columns?: string[]; widths?: Record<string, number> },
) {
  const listed = Object.entries(module.fields).filter(([, decl]) => decl.list);
  const shown = chosen?.columns
    ? chosen.columns.flatMap((field) => listed.filter(([name]) => name === field))
    : listed;
  return shown.map(([field, decl], index) => (
    <Table.Column<Row>
      key={field}
      responsive={index < PHONE_COLUMNS || field === module.titleField ? undefined : ["md"]}
      dataIndex={field}
      title={fieldLabel(t, module, field)}
      width={
        chosen?.widths?.[field] ?? (typeof decl.list === "object" ? decl.list.width : undefined)
      }
      sorter={decl.sort === true}
      defaultSortOrder={decl.sort ? getDefaultSortOrder(field, sorters) : undefined}
      render={(value: unknown, row) =>
        render[field] ? render[field](value, row) : renderCell(t, module, field, value, row)
      }
    />
  ));
}
