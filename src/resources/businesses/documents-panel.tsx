import { FileImageOutlined, FilePdfOutlined, UploadOutlined } from "@ant-design/icons";
import { useCustom, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, App, Button, Flex, Image, List, Skeleton, Tag, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

import { DocumentList, documentSizeKb } from "../../app/components/document-list";
import { Panel } from "../../app/components/panel";
import { QueryError } from "../../app/components/query-error";
import { formatDateTime } from "../../app/format";
import { TAG_COLOURS } from "../../app/kit/tag-colours";
import { toApiPath } from "../../providers/data";
import { http } from "../../providers/http";
import {
  BUSINESS_DOCUMENT_KINDS,
  DOCUMENT_ACCEPT,
  DOCUMENT_MAX_BYTES,
  type BusinessDocumentKind,
} from "../../shared/documents";
import type {
  BusinessDocumentDto,
  BusinessDocuments,
} from "../../shared/schemas/business-documents";
import { documentErrorNotification, documentErrorText } from "./errors";
import { businessDocumentForm, businessDocumentsUrl, businessFileProblem } from "./requests";

export const businessDocumentsKey = (businessId: number) => ["business-documents", businessId];

/** A business's documents, read once per page and shared by the panel and the decision dialog. */
export function useBusinessDocuments(businessId: number) {
  const { query, result } = useCustom<BusinessDocuments>({
    url: businessDocumentsUrl(businessId),
    method: "get",
    queryOptions: { queryKey: businessDocumentsKey(businessId) },
    errorNotification: false,
  });
  return { query, documents: query.data ? result.data : undefined };
}

/** The kinds a business has no document of yet, as a warning; nothing when it has them all. */
export function MissingDocuments({ missing }: { missing: readonly BusinessDocumentKind[] }) {
  const { t } = useTranslation("business");
  if (missing.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      role="status"
      message={t("documents.missing", {
        kinds: missing.map((kind) => t(`documents.kind.${kind}`)).join(t("documents.separator")),
      })}
    />
  );
}

/** An image document's thumbnail (click to enlarge), read with the session as a data: URL. */
function ImagePreview({ document }: { document: BusinessDocumentDto }) {
  const { t } = useTranslation("business");
  const [source, setSource] = useState<string>();
  useEffect(() => {
    let live = true;
    void http
      .get<Blob>(toApiPath(document.downloadPath), { responseType: "blob" })
      .then(
        (response) =>
          new Promise<string>((resolve, reject) => {
            const reader = new FileReader();
            reader.onload = () => resolve(String(reader.result));
            reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
            reader.readAsDataURL(response.data);
          }),
      )
      .then((url) => live && setSource(url))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [document.downloadPath]);
  if (!source) return <FileImageOutlined aria-hidden style={{ fontSize: 32 }} />;
  return (
    <Image
      src={source}
      width={56}
      height={72}
      style={{ objectFit: "cover", border: "1px solid rgba(0,0,0,0.1)" }}
      alt={t("documents.previewOf", { name: document.name })}
    />
  );
}

/** The documents as a list: kind, name, size and date, an image's thumbnail, a download. */
export function BusinessDocumentList({
  documents,
  compact = false,
}: {
  documents: readonly BusinessDocumentDto[];
  /** In the decision dialog: no thumbnails. */
  compact?: boolean;
}) {
  const { t } = useTranslation("business");
  return (
    <DocumentList
      documents={documents}
      namespace="business"
      errorText={(error) => documentErrorText(error, t)}
      renderMeta={(document) => (
        <List.Item.Meta
          avatar={
            compact ? undefined : document.contentType === "application/pdf" ? (
              <FilePdfOutlined aria-hidden style={{ fontSize: 32 }} />
            ) : (
              <ImagePreview document={document} />
            )
          }
          title={
            <Flex gap={6} wrap align="center">
              <Tag
                // The kit's tag colours: antd's presets fall short of 4.5:1 in the dark theme.
                style={TAG_COLOURS[document.kind === "bank_letter" ? "blue" : "purple"]}
              >
                {t(`documents.kind.${document.kind}`)}
              </Tag>
              <span style={{ overflowWrap: "anywhere" }}>{document.name}</span>
            </Flex>
          }
          description={t(document.uploadedByName ? "documents.metaBy" : "documents.meta", {
            size: documentSizeKb(document.size),
            date: formatDateTime(document.uploadedAt),
            name: document.uploadedByName,
          })}
        />
      )}
    />
  );
}

/** Buttons adding a document of each kind (a paper application), checked before sending. */
function AddDocumentButtons({ businessId, onAdded }: { businessId: number; onAdded: () => void }) {
  const { t } = useTranslation("business");
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const { mutate, mutation } = useCustomMutation<BusinessDocuments>();
  const [sending, setSending] = useState<BusinessDocumentKind>();
  const send = (kind: BusinessDocumentKind, file: File) => {
    const problem = businessFileProblem(file);
    if (problem) {
      void message.error(
        t(`documents.file.${problem}`, { name: file.name, mb: DOCUMENT_MAX_BYTES / 1024 / 1024 }),
      );
      return;
    }
    setSending(kind);
    mutate(
      {
        url: businessDocumentsUrl(businessId),
        method: "post",
        values: businessDocumentForm(kind, file),
        successNotification: {
          type: "success",
          message: t("documents.added", { name: file.name }),
        },
        errorNotification: documentErrorNotification(t, t("documents.addFailed")),
      },
      {
        onSettled: () => setSending(undefined),
        onSuccess: () => {
          onAdded();
          // The record's history shows the addition.
          void invalidate({ resource: "businesses", id: businessId, invalidates: ["detail"] });
        },
      },
    );
  };
  return (
    <Flex gap={8} wrap justify="flex-end">
      {BUSINESS_DOCUMENT_KINDS.map((kind) => (
        <Upload
          key={kind}
          accept={DOCUMENT_ACCEPT}
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            send(kind, file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button
            size="small"
            icon={<UploadOutlined aria-hidden />}
            loading={mutation.isPending && sending === kind}
          >
            {t(`documents.add.${kind}`)}
          </Button>
        </Upload>
      ))}
    </Flex>
  );
}

/** The business's documents panel: the list, what is missing, and staff adding documents. */
export function BusinessDocumentsPanel({ businessId }: { businessId: number }) {
  const { t } = useTranslation("business");
  const { query, documents } = useBusinessDocuments(businessId);
  const title = t("documents.title");
  return (
    <Panel
      title={title}
      extra={<AddDocumentButtons businessId={businessId} onAdded={() => void query.refetch()} />}
    >
      <div>
        {query.isLoading ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : query.isError || !documents ? (
          <QueryError
            error={query.error}
            onRetry={() => void query.refetch()}
            title={t("documents.loadFailed")}
          />
        ) : (
          <Flex vertical gap={8}>
            <MissingDocuments missing={documents.missing} />
            <BusinessDocumentList documents={documents.documents} />
            <span style={{ fontSize: 12, opacity: 0.7 }}>
              {t("documents.help", { mb: DOCUMENT_MAX_BYTES / 1024 / 1024 })}
            </span>
          </Flex>
        )}
      </div>
    </Panel>
  );
}

/** In the decision dialog: the documents the decision rests on, and what is missing. */
export function DecisionDocuments({ businessId }: { businessId: number }) {
  const { t } = useTranslation("business");
  const { documents } = useBusinessDocuments(businessId);
  if (!documents) return null;
  return (
    <section aria-label={t("documents.title")} style={{ marginBlockEnd: 12 }}>
      <MissingDocuments missing={documents.missing} />
      <BusinessDocumentList documents={documents.documents} compact />
    </section>
  );
}
