import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Table, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuditEntry } from "../../providers/api-types";
import { dataProvider } from "../../providers/data";
import { Panel } from "../components/panel";
import { auditChanges } from "./audit-changes";
import { displayText, NoWrap } from "./cells";
import { htmlText, isStructured, richTextFields, structuredText } from "./history-values";
import { QueryError } from "../components/query-error";
import { formatDateTime } from "../format";
import type { ModuleDecl } from "../../shared/kit/module";

export const HISTORY_PAGE_SIZE = 10;

interface AuditList {
  totalCount: number;
  entries: AuditEntry[];
}

/** Plain words only are looked up (i18next reads ":" and "." as separators). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const isPlainKey = (key: string) => /^[\w-]+$/.test(key);

/**
 * The history of staff actions on one record of `module` (`GET <url>`: its audit entries), newest
 * first, paged. `version` is when the record was last fetched: every refetch after a change
 * fetches the history again, so the new entry shows. Words come from the module's namespace
 * (`history.*`, an action's name `history.actions.<area>_<verb>`, a field's
 * `history.fields.<field>` or `fields.<field>`), else from the kit. Each change shows as the
 * module's screens show it: a field by its label, never the id behind a linked name, a value as
 * its cell words it, rich text as text and a structured value in words.
 */
export function RecordHistory({
  url,
  module,
  version,
}: {
  url: string;
  module: ModuleDecl;
  version: number;
}) {
  const namespace = module.i18n;
  const { t: translate } = useTranslation([namespace, "kit"]);
  const t = (key: string, options?: Record<string, unknown>): string =>
    String(translate([`${namespace}:${key}`, `kit:${key}`], options ?? {}));
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ["audit", url, page, version],
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const { data } = await dataProvider.custom!<AuditList>({
        url,
        method: "get",
        query: { page, pageSize: HISTORY_PAGE_SIZE },
        meta: { signal },
      });
      return data;
    },
  });
  const none = t("none");
  const richText = richTextFields(module);
  const actionName = (action: string) => {
    const key = action.replace(/\./g, "_");
    return isPlainKey(key) ? t(`history.actions.${key}`, { defaultValue: action }) : action;
  };
  const fieldName = (field: string) =>
    isPlainKey(field)
      ? t(`history.fields.${field}`, {
          defaultValue: t(`fields.${field}`, { defaultValue: field }),
        })
      : field;
  const show = (value: unknown): string => {
    if (value === null || value === undefined || value === "") return none;
    if (typeof value === "boolean") return t(value ? "history.yes" : "history.no");
    if (typeof value === "object") return structuredText(value, fieldName, show);
    // An instant the record's fields do not describe (a reset link's expiry) still reads as one.
    if (typeof value === "string" && ISO_INSTANT.test(value)) return formatDateTime(value);
    return String(value as string | number);
  };

  const shown = (field: string, value: unknown): string => {
    const declared = field in module.fields;
    if (value === null || value === undefined) {
      return declared ? displayText(translate, module, field, value) : none;
    }
    if (typeof value === "string" && richText.has(field)) return htmlText(value) || none;
    const changes = declared && module.fields[field]!.display?.kind === "changes";
    if (isStructured(value) && !changes) return show(value);
    return declared ? displayText(translate, module, field, value) : show(value);
  };

  if (query.isError) {
    return (
      <Panel title={t("history.title")}>
        <QueryError
          error={query.error}
          onRetry={() => void query.refetch()}
          title={t("history.loadFailed")}
        />
      </Panel>
    );
  }

  return (
    <Panel title={t("history.title")}>
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        loading={query.isFetching}
        dataSource={query.data?.entries ?? []}
        locale={{ emptyText: t("history.empty") }}
        scroll={{ x: true }}
        pagination={{
          current: page,
          pageSize: HISTORY_PAGE_SIZE,
          total: query.data?.totalCount ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          onChange: setPage,
        }}
      >
        <Table.Column<AuditEntry>
          dataIndex="createdAt"
          title={t("history.when")}
          width={160}
          render={(value: string) => <NoWrap>{formatDateTime(value)}</NoWrap>}
        />
        <Table.Column<AuditEntry>
          dataIndex="adminName"
          title={t("history.who")}
          render={(name: string | null) => name ?? t("history.system")}
        />
        <Table.Column<AuditEntry>
          dataIndex="action"
          title={t("history.what")}
          render={(action: string) => actionName(action)}
        />
        <Table.Column<AuditEntry>
          dataIndex="remark"
          title={t("history.remark")}
          render={(remark: string | null) => remark ?? none}
        />
        <Table.Column<AuditEntry>
          key="changes"
          title={t("history.changes")}
          render={(_, entry) => {
            const changes = auditChanges(entry.before, entry.after, module);
            if (changes.length === 0) return none;
            return (
              <ul style={{ margin: 0, paddingInlineStart: 16 }}>
                {changes.map((change) => (
                  <li key={change.field}>
                    <Typography.Text strong>{fieldName(change.field)}</Typography.Text>
                    {": "}
                    {shown(change.field, change.before)} → {shown(change.field, change.after)}
                  </li>
                ))}
              </ul>
            );
          }}
        />
      </Table>
    </Panel>
  );
}
