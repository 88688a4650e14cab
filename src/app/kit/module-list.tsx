import { useTable } from "@refinedev/antd";
import { useNotification, type CrudFilter, type HttpError } from "@refinedev/core";
import { Button, Flex, Table, Typography, theme, type CheckboxProps } from "antd";
import { PlusOutlined } from "@ant-design/icons";
import { useEffect, useRef, useState, type ReactNode } from "react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";

import { LIST_PAGING } from "../../shared/kit/list";
import type { ModuleDecl } from "../../shared/kit/module";
import { ListTable } from "../components/list-table";
import { PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { csvHeader, csvText } from "./cells";
import { ListTotals } from "./list-totals";
import { LiveNotice } from "./live-notice";
import { useListShortcuts } from "./list-shortcuts";
import { fieldColumns } from "./columns";
import { useColumnState } from "./column-settings";
import { ListViewsBar } from "./saved-views";
import {
  actionApplies,
  ActionButtons,
  DecisionDialog,
  verbButtonProps,
  type DecisionOutcome,
  type DecisionRequest,
} from "./decision";
import type { CsvColumn } from "./csv";
import { ExportButton } from "./export-button";
import {
  filtersOf,
  fixedFiltersOf,
  initialFiltersOf,
  isFiltered,
  ModuleFilters,
  restoreFilterTypes,
  searchOf,
  type ListSearch,
} from "./filters";
import { moduleText, titleOf } from "./texts";

type Row = { id: number } & Record<string, unknown>;
type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface ModuleListProps {
  module: ModuleDecl;
  /** Cells drawn differently from the field's display kind. */
  render?: Record<string, (value: unknown, row: Row) => ReactNode>;
  /** Columns no field describes (computed figures, links), after the fields' columns. */
  extraColumns?: ReactNode;
  /** What a single record's decision changes, shown in its dialog. */
  describe?: (row: Row) => ReactNode;
  /** Shown above the list (default: the module's `list.description`; null: nothing). */
  description?: ReactNode;
  /** Actions beside the title (create …), before the export. */
  headerExtra?: ReactNode;
  /** The CSV's columns, when not the fields marked `export`. */
  csvColumns?: (t: Translate) => CsvColumn<Row>[];
  /** Shown between the title and the list (the policy in force above its history). */
  before?: ReactNode;
  /** The list panel's heading, when the page holds more than the list. */
  listTitle?: ReactNode;
  /**
   * The screen draws the module's actions itself (in `extraColumns`: the administrators' status
   * button with its own confirmation), so the kit adds no actions column or bulk selection.
   */
  ownActions?: boolean;
  /**
   * Above the filters: the screen's own ways to narrow the list (a "mine" switch), given the
   * list's filters and the way to change them (kept in the URL like the others).
   */
  toolbar?: (list: {
    filters: CrudFilter[];
    setFilters: (filters: CrudFilter[]) => void;
  }) => ReactNode;
}

/**
 * A module's list, drawn from its declaration: the fields marked `list` as sortable columns, the
 * filters and search box synced to the URL, pagination, CSV export of the filtered list, and its
 * decision on each row and on selected rows, with empty, loading and error states.
 */
export function ModuleList({
  module,
  render = {},
  extraColumns,
  describe,
  description,
  headerExtra,
  csvColumns,
  before,
  listTitle,
  ownActions = false,
  toolbar,
}: ModuleListProps) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const navigate = useNavigate();
  const [firstSort] = module.defaultSort;
  // A module may explain its list in its own words (`list.description`: how figures are made).
  const explained =
    description !== undefined
      ? description
      : i18next.exists(`${module.i18n}:list.description`)
        ? text("list.description")
        : undefined;
  const {
    tableProps,
    tableQuery,
    filters,
    setFilters,
    sorters,
    searchFormProps,
    currentPage,
    setCurrentPage,
    pageSize,
    setSorters,
    setPageSize,
  } = useTable<Row, HttpError, ListSearch>({
    resource: module.name,
    onSearch: (values) => filtersOf(module, values),
    pagination: { pageSize: LIST_PAGING.defaultPageSize },
    sorters: { initial: firstSort ? [{ field: firstSort[0], order: firstSort[1] }] : [] },
    filters: { initial: initialFiltersOf(module), permanent: fixedFiltersOf(module) },
    // Page, sort and filters live in the URL: reloads, links and the back button keep them.
    syncWithLocation: true,
    // The error state below explains a failed load; the central handler toasts it once.
    errorNotification: false,
    meta: { errorPrefix: text("list.title") },
  });
  // Set during render, so the list is first requested with typed values, never with "true".
  const restored = restoreFilterTypes(module, filters);
  if (restored) setFilters(restored, "replace");
  // A page past the end (an old link, rows decided meanwhile) shows the last page, not "none yet".
  const lastPage = Math.max(1, Math.ceil((tableQuery.data?.total ?? 0) / pageSize));
  const pastTheEnd =
    tableQuery.data !== undefined && tableQuery.data.data.length === 0 && currentPage > lastPage;
  useEffect(() => {
    if (pastTheEnd) setCurrentPage(lastPage);
  }, [pastTheEnd, lastPage, setCurrentPage]);

  // A list row carries the module's record only: an action on another record (ActionDecl.of) is
  // its own panel's, one declared for the record's page (`listed: false`) is that page's, and
  // one the module's page draws itself (`ownDialog`) is drawn there only.
  const actions = ownActions
    ? []
    : Object.entries(module.actions).filter(
        ([, action]) => action.of === undefined && action.listed !== false && !action.ownDialog,
      );
  const bulkActions = actions.filter(([, action]) => action.bulk);
  const bulk = bulkActions.length > 0;
  const [selected, setSelected] = useState<ReadonlyMap<number, Row>>(new Map());
  const [request, setRequest] = useState<DecisionRequest>();
  const search = searchOf(module, filters);
  // Which columns show and how wide: the list's state, kept in a saved view (saved-views.tsx).
  const [columnState, setColumnState] = useColumnState(module);
  const { token } = theme.useToken();
  const location = useLocation();

  // The keyboard (j / k, Enter, a / r) and the palette's "approve next pending" use the action
  // that approves and rejects, when the module has one.
  const decision = actions.find(([, action]) => action.verbs.includes("approve"));
  const decide = (row: Row, verb: string) => {
    if (!decision) return;
    const [name, action] = decision;
    if (action.verbs.includes(verb) && actionApplies(action, row, verb)) {
      setRequest({ action: name, verb, rows: [row] });
    }
  };
  const rows = (tableProps.dataSource ?? []) as readonly Row[];
  const active = useListShortcuts<Row>({
    rows,
    onOpen: module.paths.show ? (row) => navigate(`${module.paths.show}/${row.id}`) : undefined,
    onDecide: decision ? decide : undefined,
  });
  // The palette's "approve next pending" (a history entry's state): the first row's decision,
  // once the rows have loaded. The ask is kept apart from the location, which the list's own
  // URL sync soon replaces without it.
  const asked = (location.state as { decide?: string } | null)?.decide;
  const [ask, setAsk] = useState<{ key: string; verb: string; found?: boolean }>();
  if (asked && ask?.key !== location.key) setAsk({ key: location.key, verb: asked });
  if (ask && ask.found === undefined && !tableQuery.isFetching) {
    setAsk({ ...ask, found: rows[0] !== undefined });
    if (rows[0]) decide(rows[0], ask.verb);
  }
  // Nobody waiting is said once; the ask leaves the history entry, so a reload does not ask again.
  const { open: notify } = useNotification();
  const answered = useRef<string>(undefined);
  useEffect(() => {
    if (ask?.found === undefined || answered.current === ask.key) return;
    answered.current = ask.key;
    if (!ask.found) {
      notify?.({
        type: "success",
        key: "nothing-waiting",
        message: t("kit:decision.nothingWaiting"),
      });
    }
    if (asked) navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [ask, asked, location, navigate, notify, t]);

  const forget = (outcome: DecisionOutcome) => {
    const gone = new Set(
      [...outcome.succeeded, ...outcome.failures.map((f) => f.row)].map((row) => row.id),
    );
    setSelected((current) => new Map([...current].filter(([id]) => !gone.has(id))));
  };

  const exported = Object.entries(module.fields).filter(([, decl]) => decl.export);
  const selectedRows = [...selected.values()];
  const exportButton =
    exported.length > 0 || csvColumns ? (
      <ExportButton<Row>
        namespace={module.i18n}
        resource={module.name}
        meta={{
          collection: module.collection,
          listKey: module.queryName,
          ...(module.listPath ? { listPath: module.listPath } : {}),
        }}
        filters={filters}
        sorters={sorters}
        filePrefix={module.collection}
        columns={
          csvColumns ??
          (() =>
            exported.map(([field]) => ({
              header: csvHeader(t, module, field),
              value: (row: Row) => csvText(t, module, field, row[field], row),
            })))
        }
      />
    ) : null;

  const createButton =
    module.create && module.paths.create ? (
      <Button
        type="primary"
        icon={<PlusOutlined aria-hidden />}
        onClick={() => navigate(module.paths.create!)}
      >
        {text("list.create")}
      </Button>
    ) : null;

  return (
    <>
      <PageHeader
        title={text("list.title")}
        extra={
          headerExtra || createButton || exportButton ? (
            <>
              {headerExtra}
              {createButton}
              {exportButton}
            </>
          ) : undefined
        }
      />
      {before}
      <Panel title={listTitle} style={before ? { marginTop: 16 } : undefined}>
        {explained && <Typography.Paragraph type="secondary">{explained}</Typography.Paragraph>}
        {toolbar?.({
          filters,
          setFilters: (next) => {
            setFilters(next, "replace");
            // The filter controls show what the list is now filtered by.
            searchFormProps.form?.setFieldsValue(searchOf(module, next) as never);
          },
        })}
        <ListViewsBar
          module={module}
          table={{
            filters,
            sorters,
            pageSize,
            setFilters,
            setSorters,
            setPageSize,
            setCurrentPage,
            form: searchFormProps.form,
          }}
          columns={columnState}
          onColumns={setColumnState}
          searchOf={(next) => searchOf(module, next)}
        />
        <LiveNotice
          resource={module.name}
          onRefresh={() => tableQuery.refetch()}
          shown={rows.map((row) => row.id)}
        />
        <ModuleFilters module={module} formProps={searchFormProps} initialValues={search} />
        {module.totals && (
          <ListTotals
            module={module}
            totals={(tableQuery.data as { totals?: Record<string, number> } | undefined)?.totals}
          />
        )}
        {bulk && (
          <Flex gap={8} align="center" wrap style={{ marginBottom: 12 }}>
            <Typography.Text type="secondary" aria-live="polite">
              {text("list.selected", { count: selectedRows.length })}
            </Typography.Text>
            {bulkActions.flatMap(([name, action]) =>
              action.verbs.map((verb) => (
                <Button
                  key={`${name}.${verb}`}
                  {...verbButtonProps(action, verb)}
                  // Ban or unban: only the selected rows that verb applies to.
                  disabled={!selectedRows.some((row) => actionApplies(action, row, verb))}
                  onClick={() =>
                    setRequest({
                      action: name,
                      verb,
                      rows: selectedRows.filter((row) => actionApplies(action, row, verb)),
                    })
                  }
                >
                  {text(`list.${verb}Selected`)}
                </Button>
              )),
            )}
          </Flex>
        )}
        <ListTable<Row>
          namespace={module.i18n}
          query={tableQuery}
          tableProps={{
            ...tableProps,
            onRow: (_, index) =>
              index === active
                ? {
                    "aria-current": true,
                    style: { outline: `2px solid ${token.colorPrimary}`, outlineOffset: -2 },
                  }
                : {},
            ...(bulk
              ? {
                  rowSelection: {
                    selectedRowKeys: [...selected.keys()],
                    preserveSelectedRowKeys: true,
                    // antd copies column titles into an aria-hidden measuring row, where a
                    // select-all checkbox would be a focusable control hidden from assistive tech.
                    hideSelectAll: true,
                    onChange: (keys, rows) =>
                      setSelected((current) => {
                        const next = new Map<number, Row>();
                        for (const key of keys) {
                          const id = Number(key);
                          const row =
                            rows.find((candidate) => candidate?.id === id) ?? current.get(id);
                          if (row) next.set(id, row);
                        }
                        return next;
                      }),
                    // antd hands these to the checkbox's <input>; its types leave aria-* out.
                    getCheckboxProps: (row: Row) =>
                      ({
                        "aria-label": text("list.selectRow", { name: titleOf(module, row) }),
                        disabled: !bulkActions.some(([, action]) => actionApplies(action, row)),
                      }) as CheckboxProps,
                  },
                }
              : {}),
          }}
          filtered={isFiltered(module, search)}
        >
          {fieldColumns(t, module, sorters, render, columnState)}
          {extraColumns}
          {actions.length > 0 && (
            <Table.Column<Row>
              key="actions"
              title={text("list.actions")}
              // Kept at the table's right edge: a row's decision is in reach on a small laptop
              // (1366 px), however many columns scroll beside it.
              fixed="right"
              render={(_, row) => (
                <ActionButtons
                  module={module}
                  row={row}
                  only={actions.map(([name]) => name)}
                  onDecide={setRequest}
                />
              )}
            />
          )}
        </ListTable>
      </Panel>
      {request && module.actions[request.action] && (
        <DecisionDialog
          module={module}
          action={module.actions[request.action]!}
          request={request}
          describe={describe}
          onDecided={forget}
          onClose={() => setRequest(undefined)}
        />
      )}
    </>
  );
}
