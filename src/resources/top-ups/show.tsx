import { PrinterOutlined } from "@ant-design/icons";
import { useNotification } from "@refinedev/core";
import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { downloadFile } from "../../app/components/download";
import { ModuleShow } from "../../app/kit/generated-show";
import { currentLanguage } from "../../providers/http";
import { receiptNumberOf, topUps, type TopUpTransactionDto } from "../../shared/modules/top-ups";

/** A receipt's PDF on the API, in a language of the console. */
const receiptPdfPath = (id: number, file: "receipt.pdf" | "reversal-receipt.pdf") =>
  `/api/top-up-transactions/${encodeURIComponent(String(id))}/${file}?lang=${encodeURIComponent(currentLanguage())}`;

/** Downloads one receipt's PDF, to print at the counter. */
function PrintButton({
  id,
  file,
  number,
  label,
}: {
  id: number;
  file: "receipt.pdf" | "reversal-receipt.pdf";
  number: string;
  label: string;
}) {
  const { t } = useTranslation("topUp");
  const { open } = useNotification();
  const [loading, setLoading] = useState(false);
  const print = async () => {
    setLoading(true);
    try {
      await downloadFile(receiptPdfPath(id, file), `${number}.pdf`);
    } catch {
      open?.({ type: "error", message: t("receipt.printFailed") });
    } finally {
      setLoading(false);
    }
  };
  return (
    <Button icon={<PrinterOutlined aria-hidden />} loading={loading} onClick={() => void print()}>
      {label}
    </Button>
  );
}

/**
 * The receipts a top-up has: a counter top-up's own (still printed once reversed, marked so), and
 * its reversal's. E-mailing them is the declaration's actions, drawn by the kit beside these.
 */
export function ReceiptButtons({ row }: { row: TopUpTransactionDto }) {
  const { t } = useTranslation("topUp");
  const applied = row.status === "success" || row.status === "reversed";
  return (
    <>
      {row.channel === "counter" && applied && (
        <PrintButton
          id={row.id}
          file="receipt.pdf"
          number={receiptNumberOf(row.reference)}
          label={t("receipt.print")}
        />
      )}
      {row.status === "reversed" && row.reversalReference && (
        <PrintButton
          id={row.id}
          file="reversal-receipt.pdf"
          number={receiptNumberOf(row.reversalReference)}
          label={t("receipt.printReversal")}
        />
      )}
    </>
  );
}

/** A top-up's detail page, with its receipts beside the actions. */
export default function TopUpShow() {
  return (
    <ModuleShow
      module={topUps}
      headerExtra={(row) => <ReceiptButtons row={row as TopUpTransactionDto} />}
    />
  );
}
