import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { useInvalidate, useNotification } from "@refinedev/core";
import {
  Alert,
  Button,
  Checkbox,
  Flex,
  Modal,
  Progress,
  Table,
  Tag,
  Typography,
  Upload,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { downloadFile } from "../../app/components/download";
import { Refusal } from "../../app/components/refusal";
import { decisionErrorText } from "../../app/kit/decision";
import { toApiError } from "../../providers/api-error";
import { http } from "../../providers/http";
import {
  UCSI_IMPORT_FIELD,
  UCSI_IMPORT_MAX_BYTES,
  ucsiIds,
  type ImportResult,
  type ImportRow,
} from "../../shared/modules/ucsi-ids";

export const IMPORT_URL = "/api/ucsi-ids/import";
export const TEMPLATE_URL = "/api/ucsi-ids/import-template";
const MAX_MB = UCSI_IMPORT_MAX_BYTES / 1024 / 1024;

/** Where a request is: sending the file (percent), or the server checking its rows. */
type Progress = { phase: "uploading"; percent: number } | { phase: "processing"; rows: number };

/** Sends the file (multipart) for a dry run or a real import, reporting the upload's progress. */
export async function sendImport(
  file: File,
  dryRun: boolean,
  onProgress: (progress: Progress) => void,
): Promise<ImportResult> {
  const form = new FormData();
  form.append("dryRun", String(dryRun));
  form.append(UCSI_IMPORT_FIELD, file, file.name);
  // Rows in the file, roughly (its lines), to say what the server is checking.
  const rows = Math.max(0, Math.round(file.size / 32));
  const response = await http.post<ImportResult>(IMPORT_URL, form, {
    onUploadProgress: (event) => {
      const percent = event.total ? Math.round((event.loaded / event.total) * 100) : 0;
      onProgress(percent >= 100 ? { phase: "processing", rows } : { phase: "uploading", percent });
    },
  });
  return response.data;
}

const RESULT_COLOURS: Record<ImportRow["result"], string> = {
  ok: "green",
  bad_format: "red",
  formula: "magenta",
  unknown_account: "orange",
  duplicate_in_file: "gold",
  already_linked: "volcano",
  account_linked: "volcano",
};

/** The rows' results: line, the row as read, and what is wrong with it (or ready). */
function ResultTable({ rows }: { rows: readonly ImportRow[] }) {
  const { t } = useTranslation("ucsiId");
  const [problemsOnly, setProblemsOnly] = useState(true);
  const shown = problemsOnly ? rows.filter((row) => row.result !== "ok") : rows;
  return (
    <>
      <Checkbox checked={problemsOnly} onChange={(event) => setProblemsOnly(event.target.checked)}>
        {t("import.problemsOnly")}
      </Checkbox>
      <Table<ImportRow>
        size="small"
        rowKey="line"
        dataSource={shown}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        style={{ marginTop: 8 }}
        columns={[
          { title: t("import.line"), dataIndex: "line", width: 70 },
          { title: t("fields.ucsiId"), dataIndex: "ucsiId", ellipsis: true },
          { title: t("fields.type"), dataIndex: "type", width: 90 },
          { title: t("fields.accountNumber"), dataIndex: "accountNumber", ellipsis: true },
          {
            title: t("import.result"),
            dataIndex: "result",
            render: (result: ImportRow["result"]) => (
              <Tag color={RESULT_COLOURS[result]}>{t(`import.results.${result}`)}</Tag>
            ),
          },
        ]}
      />
    </>
  );
}

/**
 * "Import CSV": choose a file, check it (a dry run: one result per row, nothing stored), then
 * import it (every row or none). A refused import shows its rows the same way. A file whose check
 * or import found problems, or that was imported, is not imported (again): the staff member
 * chooses a file anew.
 */
export function ImportUcsiIds() {
  const { t } = useTranslation(["ucsiId", "kit"]);
  const invalidate = useInvalidate();
  const notification = useNotification();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File>();
  const [progress, setProgress] = useState<Progress>();
  const [result, setResult] = useState<ImportResult>();
  const [rejected, setRejected] = useState<{ message: string; rows: ImportRow[] }>();
  // What the last run of this file found: problems (a check or a refused import), or the import done.
  const [finding, setFinding] = useState<"problems" | "imported">();

  const reset = (next?: File) => {
    setFile(next);
    setResult(undefined);
    setRejected(undefined);
    setFinding(undefined);
  };

  const run = async (dryRun: boolean) => {
    if (!file) return;
    setResult(undefined);
    setRejected(undefined);
    setProgress({ phase: "uploading", percent: 0 });
    try {
      const answer = await sendImport(file, dryRun, setProgress);
      setResult(answer);
      setFinding(!dryRun ? "imported" : answer.invalid > 0 ? "problems" : undefined);
      if (!dryRun) {
        notification.open?.({
          type: "success",
          message: t("import.done", { count: answer.imported }),
        });
        await invalidate({ resource: ucsiIds.name, invalidates: ["all"] });
      }
    } catch (failure) {
      const error = toApiError(failure);
      const data = (error.data ?? {}) as { rows?: ImportRow[] };
      setRejected({ message: decisionErrorText(t, ucsiIds, failure), rows: data.rows ?? [] });
      if (data.rows?.length) setFinding("problems");
    } finally {
      setProgress(undefined);
    }
  };

  const busy = progress !== undefined;
  return (
    <>
      <Button
        icon={<DownloadOutlined aria-hidden />}
        onClick={() =>
          void downloadFile(TEMPLATE_URL, "ucsi-id-import-template.csv").catch(() =>
            notification.open?.({ type: "error", message: t("import.templateFailed") }),
          )
        }
      >
        {t("import.template")}
      </Button>
      <Button
        icon={<UploadOutlined aria-hidden />}
        onClick={() => {
          reset();
          setOpen(true);
        }}
      >
        {t("import.button")}
      </Button>
      <Modal
        open={open}
        title={t("import.title")}
        width={820}
        maskClosable={false}
        destroyOnHidden
        onCancel={() => !busy && setOpen(false)}
        footer={
          <Flex gap={8} justify="end">
            <Button onClick={() => setOpen(false)} disabled={busy}>
              {t("import.close")}
            </Button>
            <Button
              disabled={!file || busy || finding === "imported"}
              onClick={() => void run(true)}
            >
              {t("import.dryRun")}
            </Button>
            <Button
              type="primary"
              disabled={!file || busy || finding !== undefined}
              onClick={() => void run(false)}
            >
              {t("import.run")}
            </Button>
          </Flex>
        }
      >
        <Typography.Paragraph>{t("import.intro", { maxMb: MAX_MB })}</Typography.Paragraph>
        <Upload
          accept=".csv,text/csv"
          maxCount={1}
          showUploadList={false}
          beforeUpload={(chosen) => {
            reset(chosen);
            return false;
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />} disabled={busy}>
            {t("import.choose")}
          </Button>
        </Upload>
        {file && (
          <Typography.Paragraph style={{ marginTop: 8 }}>
            {t("import.chosen", { name: file.name })}
          </Typography.Paragraph>
        )}
        {progress && (
          <div role="status" style={{ marginTop: 12 }}>
            <Progress
              percent={progress.phase === "uploading" ? progress.percent : 100}
              status="active"
            />
            <Typography.Text>
              {progress.phase === "uploading"
                ? t("import.uploading", { percent: progress.percent })
                : t("import.processing", { rows: progress.rows })}
            </Typography.Text>
          </div>
        )}
        {finding === "problems" && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t("import.fixFirst")}
          </Typography.Paragraph>
        )}
        {rejected && (
          <Refusal title={t("import.failed")} reason={rejected.message} style={{ marginTop: 12 }} />
        )}
        {result && (
          <Alert
            type={result.invalid > 0 ? "warning" : "success"}
            showIcon
            role="status"
            message={t("import.summary", result)}
            description={
              result.dryRun ? t("import.checked") : t("import.done", { count: result.imported })
            }
            style={{ marginTop: 12 }}
          />
        )}
        {(result || (rejected && rejected.rows.length > 0)) && (
          <div style={{ marginTop: 12 }}>
            <ResultTable rows={result?.rows ?? rejected!.rows} />
          </div>
        )}
      </Modal>
    </>
  );
}
