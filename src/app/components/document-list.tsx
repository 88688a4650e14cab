import { DownloadOutlined } from "@ant-design/icons";
import { App, Button, Empty, List } from "antd";
import type { ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { downloadFile } from "./download";

/** What a stored document shows in a list: its id, its client's name and its download path. */
export interface ListedDocument {
  id: string;
  name: string;
  downloadPath: string;
}

/**
 * A record's documents (a rider's, a business's) as a list, each with a download button that
 * fetches it with the session. The caller's namespace holds the words (`documents.empty`,
 * `documents.title`, `documents.download`, `documents.downloadNamed`, `documents.downloadFailed`)
 * and says how a failure reads and what each row shows beside its button.
 */
export function DocumentList<D extends ListedDocument>({
  documents,
  namespace,
  errorText,
  renderMeta,
}: {
  documents: readonly D[];
  namespace: string;
  /** The failed download's reason, in the caller's words. */
  errorText: (error: unknown) => string;
  /** A row's avatar, title and description. */
  renderMeta: (document: D) => ReactNode;
}) {
  const { t } = useTranslation(namespace);
  const { notification } = App.useApp();
  const [busy, setBusy] = useState<string>();
  const download = async (document: D) => {
    setBusy(document.id);
    try {
      await downloadFile(document.downloadPath, document.name);
    } catch (error) {
      notification.error({ message: t("documents.downloadFailed"), description: errorText(error) });
    } finally {
      setBusy(undefined);
    }
  };
  if (documents.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("documents.empty")} />;
  }
  return (
    <List
      size="small"
      dataSource={[...documents]}
      rowKey="id"
      aria-label={t("documents.title")}
      renderItem={(document) => (
        <List.Item
          actions={[
            <Button
              key="download"
              size="small"
              icon={<DownloadOutlined aria-hidden />}
              loading={busy === document.id}
              aria-label={t("documents.downloadNamed", { name: document.name })}
              onClick={() => void download(document)}
            >
              {t("documents.download")}
            </Button>,
          ]}
        >
          {renderMeta(document)}
        </List.Item>
      )}
    />
  );
}

/** A document's size and date as its list shows them (`documents.meta`: size in kB, date). */
export const documentSizeKb = (bytes: number) => Math.max(1, Math.round(bytes / 1024));
