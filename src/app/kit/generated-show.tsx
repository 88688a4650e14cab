import { useShow, type HttpError } from "@refinedev/core";
import { EditOutlined } from "@ant-design/icons";
import { Button, Descriptions, Skeleton } from "antd";
import { useNavigate } from "react-router";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import type { ModuleDecl } from "../../shared/kit/module";
import { PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { QueryError } from "../components/query-error";
import { displayText, renderCell } from "./cells";
import { ChangeRequestsPanel, hasFourEyes } from "./change-requests-panel";
import { ActionButtons, DecisionDialog, type DecisionRequest } from "./decision";
import { RecordHistory } from "./history-panel";
import { RelatedList } from "./related-list";
import { useModule } from "./use-module";
import { fieldLabel, moduleText, titleOf } from "./texts";
import { RecordLive } from "./record-live";

type Row = { id: number } & Record<string, unknown>;

/** How often the page of a record in a live state (ModuleInput.live) is read again. */
const LIVE_REFRESH_MS = 2_000;

/** The detail page of a module that needs nothing beyond its declaration. */
export default function GeneratedShow() {
  return <ModuleShow module={useModule()} />;
}

/**
 * A module's detail page drawn from its declaration: every field marked `show`, as the list
 * shows it, and the buttons of the actions that apply to the record (after `headerExtra`'s).
 */
export function ModuleShow({
  module,
  headerExtra,
  after,
  render = {},
}: {
  module: ModuleDecl;
  /** Fields drawn differently from their display kind (a module's name in its own words). */
  render?: Record<string, (value: unknown, row: Row) => ReactNode>;
  /**
   * Buttons of the module's own beside the title (a settlement's invoice); `refetch` reads the
   * record again after a change they made.
   */
  headerExtra?: (row: Row, refetch: () => void) => ReactNode;
  /** What the module shows of the record below its fields (a body's preview). */
  after?: (row: Row) => ReactNode;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const { live } = module;
  const { query, result } = useShow<Row, HttpError>({
    resource: module.name,
    errorNotification: false,
    queryOptions: {
      refetchInterval: (current) =>
        live && live.values.includes(String(current.state.data?.data[live.field]))
          ? LIVE_REFRESH_MS
          : false,
    },
  });
  const [request, setRequest] = useState<DecisionRequest>();
  const navigate = useNavigate();
  if (query.isError) {
    return <QueryError query={query} title={text("show.loadFailed")} />;
  }
  if (!result) return <Skeleton active />;
  const shown = Object.entries(module.fields).filter(([, decl]) => decl.show);
  const editable =
    module.edit !== undefined &&
    module.paths.edit !== undefined &&
    Object.entries(module.edit.when ?? {}).every(([field, allowed]) =>
      allowed.includes(String(result[field])),
    );
  return (
    <>
      <PageHeader
        title={titleOf(module, result)}
        extra={
          <>
            {headerExtra?.(result, () => void query.refetch())}
            {editable && (
              <Button
                icon={<EditOutlined aria-hidden />}
                onClick={() => navigate(module.paths.edit!.replace(":id", String(result.id)))}
              >
                {text("show.edit")}
              </Button>
            )}
            <ActionButtons module={module} row={result} size="middle" onDecide={setRequest} />
          </>
        }
      />
      <RecordLive
        key={result.id}
        resource={module.name}
        id={result.id}
        onRefresh={() => query.refetch()}
      />
      <Panel>
        <Descriptions column={{ xs: 1, md: 2 }} bordered size="small">
          {shown.map(([field]) => (
            <Descriptions.Item key={field} label={fieldLabel(t, module, field)}>
              {/* A link to this very page says nothing: its text stands alone. */}
              {render[field]
                ? render[field](result[field], result)
                : module.fields[field]?.display?.kind === "link" &&
                    module.fields[field]?.display?.to === "self"
                  ? displayText(t, module, field, result[field], result)
                  : renderCell(t, module, field, result[field], result)}
            </Descriptions.Item>
          ))}
        </Descriptions>
      </Panel>
      {after?.(result)}
      {Object.entries(module.related ?? {}).map(([name, list]) => (
        <div key={name} style={{ marginTop: 16 }}>
          <RelatedList
            // Read again when a live record moves on (a delivery's recipients, once it is sent).
            key={live ? String(result[live.field]) : undefined}
            module={module}
            name={name}
            list={list}
            id={result.id}
          />
        </div>
      ))}
      {hasFourEyes(module) && (
        <div style={{ marginTop: 16 }}>
          <ChangeRequestsPanel module={module} id={result.id} />
        </div>
      )}
      <div style={{ marginTop: 16 }}>
        <RecordHistory
          url={`/api/${module.collection}/${result.id}/audit`}
          module={module}
          version={query.dataUpdatedAt}
        />
      </div>
      {request && module.actions[request.action] && (
        <DecisionDialog
          module={module}
          action={module.actions[request.action]!}
          request={request}
          onDecided={() => void query.refetch()}
          onClose={() => setRequest(undefined)}
        />
      )}
    </>
  );
}
