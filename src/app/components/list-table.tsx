import { Empty, Table, type TableProps } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatTotal } from "../format";
import { QueryError } from "./query-error";

interface ListQuery {
  /** The data provider's getList answer; `totalExact: false` makes the total read "1,000+". */
  data?: { total: number; [key: string]: unknown };
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

interface ListTableProps<Row> {
  /** The resource's namespace: it provides `list.loadFailed`, `list.total`, `list.empty`, `list.noMatch`. */
  namespace: string;
  query: ListQuery;
  tableProps: TableProps<Row>;
  /** Whether a search or filter is applied, which decides what the empty state says. */
  filtered: boolean;
  children: ReactNode;
}

/**
 * Every back-office list the same way: server pagination with a size changer and a total, an
 * empty state that says whether nothing exists or nothing matches, and an error state with Retry
 * in place of the table. Loading is the table's own spinner.
 */
export function ListTable<Row extends { id: number | string }>({
  namespace,
  query,
  tableProps,
  filtered,
  children,
}: ListTableProps<Row>) {
  const { t } = useTranslation(namespace);
  if (query.isError) {
    return <QueryError query={query} title={t("list.loadFailed")} />;
  }
  return (
    <Table<Row>
      {...tableProps}
      rowKey="id"
      // As wide as the columns' content: wider than the screen, the table scrolls on its own
      // and a fixed column stays beside the others instead of covering one.
      scroll={{ x: "max-content" }}
      pagination={
        tableProps.pagination && {
          ...tableProps.pagination,
          showSizeChanger: true,
          showTotal: (total) =>
            t("list.total", {
              count: total,
              total: formatTotal(total, query.data?.totalExact !== false),
            }),
        }
      }
      locale={{
        emptyText: (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t(filtered ? "list.noMatch" : "list.empty")}
          />
        ),
      }}
    >
      {children}
    </Table>
  );
}
