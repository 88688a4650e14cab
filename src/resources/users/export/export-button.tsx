import { DownloadOutlined } from "@ant-design/icons";
import type { CrudFilter, CrudSort } from "@refinedev/core";
import { Alert, Button, Modal, Progress, Typography } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatTotal } from "../../../app/format";
import type { UserDto } from "../../../providers/api-types";
import { isApiError, translateApiError } from "../../../providers/errors";
import {
  type CsvColumn,
  downloadText,
  EXPORT_MAX_ROWS,
  type ExportProgress,
  exportFileName,
  fetchAllUsers,
  toCsv,
} from "./csv";

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The exported columns, headed in the current language, values as the list shows them. */
export function userCsvColumns(t: Translate): CsvColumn<UserDto>[] {
  const text = (value: string | null) => value ?? "";
  const yesNo = (value: boolean) => t(value ? "export.yes" : "export.no");
  return [
    { header: t("fields.accountNumber"), value: (u) => u.accountNumber },
    { header: t("fields.name"), value: (u) => u.name },
    { header: t("fields.email"), value: (u) => text(u.email) },
    { header: t("fields.phone"), value: (u) => text(u.phone) },
    { header: t("fields.role"), value: (u) => t(`role.${u.role}`) },
    { header: t("fields.approvalStatus"), value: (u) => t(`approvalStatus.${u.approvalStatus}`) },
    { header: t("fields.isBanned"), value: (u) => yesNo(u.isBanned) },
    { header: t("fields.isVip"), value: (u) => yesNo(u.isVip) },
    { header: t("fields.url"), value: (u) => text(u.url) },
    { header: t("fields.lastActiveAt"), value: (u) => formatDateTime(u.lastActiveAt, "") },
    { header: t("fields.createdAt"), value: (u) => formatDateTime(u.createdAt) },
  ];
}

type State =
  | { step: "ask" }
  | { step: "running"; progress: ExportProgress }
  | { step: "done"; count: number; total: number; totalExact: boolean; capped: boolean }
  | { step: "failed"; message: string };

/** Exports the filtered, sorted user list as CSV, with progress and a row cap. */
export function ExportUsersButton({
  filters,
  sorters,
}: {
  filters: CrudFilter[];
  sorters: CrudSort[];
}) {
  const { t } = useTranslation("users");
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ step: "ask" });
  const abort = useRef<AbortController | null>(null);

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setState({ step: "running", progress: { done: 0, total: 0 } });
    try {
      const result = await fetchAllUsers({
        filters,
        sorters,
        signal: controller.signal,
        onProgress: (progress) => setState({ step: "running", progress }),
      });
      if (controller.signal.aborted) return;
      if (result.users.length > 0) {
        downloadText(toCsv(result.users, userCsvColumns(t)), exportFileName());
      }
      setState({
        step: "done",
        count: result.users.length,
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
            {t("actions.cancel")}
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
