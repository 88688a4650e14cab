import { DownloadOutlined, FileTextOutlined } from "@ant-design/icons";
import { useNotification } from "@refinedev/core";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { downloadFile } from "../../app/components/download";
import { ModuleShow } from "../../app/kit/generated-show";
import { currentLanguage } from "../../providers/http";
import { settlements } from "../../shared/modules/settlements";
import { invoicePath, invoicePdfPath } from "./paths";

/** Opens the invoice page, or downloads its PDF in the console's language. */
export function InvoiceButtons({
  id,
  invoiceNumber,
  onInvoice = false,
}: {
  id: number;
  invoiceNumber: string;
  /** On the invoice page itself: only its PDF. */
  onInvoice?: boolean;
}) {
  const { t } = useTranslation("invoice");
  const navigate = useNavigate();
  const { open } = useNotification();
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadFile(invoicePdfPath(id, currentLanguage()), `${invoiceNumber}.pdf`);
    } catch {
      open?.({ type: "error", message: t("loadFailed") });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <>
      {!onInvoice && (
        <Button icon={<FileTextOutlined aria-hidden />} onClick={() => navigate(invoicePath(id))}>
          {t("title")}
        </Button>
      )}
      <Button
        icon={<DownloadOutlined aria-hidden />}
        loading={downloading}
        onClick={() => void download()}
      >
        {t("download")}
      </Button>
    </>
  );
}

/** A settlement's detail page, with its invoice beside the actions. */
export default function SettlementShow() {
  return (
    <ModuleShow
      module={settlements}
      headerExtra={(row) => (
        <InvoiceButtons id={row.id} invoiceNumber={String(row.invoiceNumber)} />
      )}
    />
  );
}
