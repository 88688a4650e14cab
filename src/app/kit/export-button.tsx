import { DownloadOutlined } from "@ant-design/icons";
import type { CrudSort } from "@refinedev/core";
import { Alert, Button, Modal, Progress, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CrudFilter as Filter, MetaQuery } from "@refinedev/core";
import { isApiError, translateApiError } from "../../providers/errors";
import { formatTotal } from "../format";
import {
  type CsvColumn,
  downloadText,
  EXPORT_MAX_ROWS,
  type ExportProgress,
  exportFileName,
  fetchAllRows,
  toCsv,
} from "./csv";

type State =
  | { step: "ask" }
  | { step: "running"; progress: ExportProgress }
  | { step: "done"; count: number; total: number; totalExact: boolean; capped: boolean }
  | { step: "failed"; message: string };

/**
 * Exports a list's filtered, sorted rows as CSV, with progress and a row cap. Words come from the
 * list's namespace (`export.*`), else the kit's.
 */
export function ExportButton<T extends Record<string, unknown>>({
  namespace,
  resource,
  meta,
  filters,
  sorters,
  columns,
  filePrefix,
}: {
  namespace: string;
  resource: string;
  meta: MetaQuery;
  filters: Filter[];
  sorters: CrudSort[];
  columns: (t: (key: string, options?: Record<string, unknown>) => string) => CsvColumn<T>[];
  filePrefix: string;
}) {
  const { t: translate } = useTranslation([namespace, "kit"]);
  const t = (key: string, options?: Record<string, unknown>) =>
    String(translate([`${namespace}:${key}`, `kit:${key}`], options ?? {}));
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ step: "ask" });
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setState({ step: "running", progress: { done: 0, total: 0 } });
    try {
      const result = await fetchAllRows<T>({
        resource,
        meta,
        filters,
        sorters,
        signal: controller.signal,
        onProgress: (progress) => setState({ step: "running", progress }),
      });
      if (controller.signal.aborted) return;
      if (result.rows.length > 0) {
        downloadText(toCsv(result.rows, columns(t)), exportFileName(filePrefix));
      }
      setState({
        step: "done",
        count: result.rows.length,
        total: result.total,
        totalExact: result.totalExact,
        capped: result.capped,
      });
    } catch (error) {
      if (controller.signal.aborted) return;
      setState({
        step: "failed",
        message: isApiError(error) ? translateApiError(error, t) : t("export.failed"),
      });
    }
  };

  const close = () => {
    abort.current?.abort();
    abort.current = null;
    setOpen(false);
    setState({ step: "ask" });
  };

  const running = state.step === "running";
  const percent =
    state.step === "running" && state.progress.total > 0
      ? Math.round((state.progress.done / state.progress.total) * 100)
      : 0;

  return (
    <>
      <Button icon={<DownloadOutlined aria-hidden />} onClick={() => setOpen(true)}>
        {t("export.button")}
      </Button>
      <Modal
        open={open}
        title={t("export.title")}
        onCancel={close}
        destroyOnHidden
        footer={[
          <Button key="close" onClick={close}>
            {t("export.cancel")}
          </Button>,
          state.step === "ask" || state.step === "failed" ? (
            <Button key="start" type="primary" onClick={() => void start()}>
              {t("export.start")}
            </Button>
          ) : null,
        ]}
      >
        <Typography.Paragraph>
          {t("export.body", { max: EXPORT_MAX_ROWS.toLocaleString() })}
        </Typography.Paragraph>
        {running && (
          <div role="status" aria-live="polite">
            <Progress percent={percent} status="active" />
            <Typography.Text>
              {t("export.progress", {
                done: state.progress.done,
                total: state.progress.total,
              })}
            </Typography.Text>
          </div>
        )}
        {state.step === "done" && (
          <div role="status">
            {state.count === 0 ? (
              <Alert type="info" showIcon message={t("export.empty")} />
            ) : (
              <Alert type="success" showIcon message={t("export.done", { count: state.count })} />
            )}
            {state.capped && (
              <Alert
                style={{ marginTop: 8 }}
                type="warning"
                showIcon
                message={t("export.capped", {
                  max: EXPORT_MAX_ROWS.toLocaleString(),
                  total: formatTotal(state.total, state.totalExact),
                })}
              />
            )}
          </div>
        )}
        {state.step === "failed" && (
          <Alert type="error" showIcon message={t("export.failed")} description={state.message} />
        )}
      </Modal>
    </>
  );
}
