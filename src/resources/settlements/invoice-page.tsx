import { ArrowLeftOutlined, PrinterOutlined } from "@ant-design/icons";
import { useOne, type HttpError } from "@refinedev/core";
import { Button, Flex, Skeleton } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";

import { QueryError } from "../../app/components/query-error";
import { idParam, StatusPage } from "../../app/components/status-page";
import { formatDate, formatDateTime } from "../../app/format";
import { ForbiddenPage } from "../../app/pages/forbidden";
import { canAccess } from "../../providers/access-control";
import { useCurrentAdmin } from "../../providers/current-admin";
import { toApiError } from "../../providers/errors";
import { formatRinggit } from "../../shared/money";
import { settlements, type SettlementDto } from "../../shared/modules/settlements";
import { InvoiceButtons } from "./show";
import "./invoice.css";

const COUNT = new Intl.NumberFormat("en");

/**
 * The shell page `?id=invoice&settlement={id}`: one settlement as an A4 invoice in the console's
 * language, with Print (the print stylesheet leaves only the sheet) and its PDF. An unknown or
 * missing settlement gets a page that says so; without Settlement (35), the not-permitted page.
 */
export default function InvoicePage() {
  const admin = useCurrentAdmin();
  const { search } = useLocation();
  const id = idParam(search, "settlement");
  if (admin && !canAccess(admin, settlements.permission)) return <ForbiddenPage />;
  return id === undefined ? <MissingInvoice /> : <Invoice id={id} />;
}

function MissingInvoice({ id }: { id?: string }) {
  const { t } = useTranslation("invoice");
  return (
    <StatusPage
      status="404"
      title={t("notFoundTitle")}
      description={id === undefined ? t("noSettlement") : t("notFound", { id })}
      action={{ label: t("toSettlements"), to: settlements.paths.list }}
    />
  );
}

function Invoice({ id }: { id: number }) {
  const { t } = useTranslation(["invoice", "settlement"]);
  const navigate = useNavigate();
  const { query, result } = useOne<SettlementDto, HttpError>({
    resource: settlements.name,
    id,
    errorNotification: false,
  });
  const number = result?.invoiceNumber;
  useEffect(() => {
    if (!number) return undefined;
    const before = document.title;
    document.title = t("documentTitle", { number });
    return () => {
      document.title = before;
    };
  }, [number, t]);

  if (query.isError) {
    if (toApiError(query.error).statusCode === 404) return <MissingInvoice id={String(id)} />;
    return <QueryError query={query} title={t("loadFailed")} />;
  }
  if (!result) return <Skeleton active />;
  const s = result;
  const figures: Array<[string, string, boolean?]> = [
    [t("paymentCount"), COUNT.format(s.paymentCount)],
    [t("grossSen"), formatRinggit(s.grossSen)],
    [`${t("refundSen")} (${COUNT.format(s.refundCount)})`, formatRinggit(-s.refundSen)],
    [t("feeSen"), formatRinggit(-s.feeSen)],
    [t("netSen"), formatRinggit(s.netSen), true],
  ];
  return (
    <div className="invoice-page">
      <Flex className="invoice-actions" gap={8} wrap style={{ marginBottom: 16 }}>
        <Button
          icon={<ArrowLeftOutlined aria-hidden />}
          onClick={() => navigate(`${settlements.paths.show}/${s.id}`)}
        >
          {t("back")}
        </Button>
        <Button
          type="primary"
          icon={<PrinterOutlined aria-hidden />}
          onClick={() => window.print()}
        >
          {t("print")}
        </Button>
        <InvoiceButtons id={s.id} invoiceNumber={s.invoiceNumber} onInvoice />
      </Flex>
      <article
        className="invoice-sheet"
        aria-label={t("documentTitle", { number: s.invoiceNumber })}
      >
        <header className="invoice-head">
          <div>
            <div className="invoice-issuer">{t("issuer")}</div>
            <div className="invoice-muted">{t("issuerLine")}</div>
          </div>
          <div className="invoice-title">
            <h1>{t("title")}</h1>
            <div data-testid="invoice-number">{s.invoiceNumber}</div>
          </div>
        </header>
        <div className="invoice-parties">
          <dl>
            <dt>{t("billTo")}</dt>
            <dd>{s.businessName}</dd>
            <dt>{t("registrationNumber")}</dt>
            <dd>{s.businessRegistrationNumber}</dd>
            <dt>{t("bankAccount")}</dt>
            <dd>
              {s.bankName} {s.bankAccount}
            </dd>
          </dl>
          <dl>
            <dt>{t("invoiceNumber")}</dt>
            <dd>{s.invoiceNumber}</dd>
            <dt>{t("issueDate")}</dt>
            <dd>{formatDate(s.createdAt)}</dd>
            <dt>{t("period")}</dt>
            <dd>
              {t("periodValue", { start: formatDate(s.periodStart), end: formatDate(s.periodEnd) })}
            </dd>
            <dt>{t("status")}</dt>
            <dd>{t(`statusValue.${s.status}`)}</dd>
          </dl>
        </div>
        <table className="invoice-figures">
          <tbody>
            {figures.map(([label, value, total]) => (
              <tr key={label} className={total ? "invoice-total" : undefined}>
                <th scope="row">{label}</th>
                <td data-testid={total ? "invoice-net" : undefined}>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="invoice-payment">
          <dt>{t("bankReference")}</dt>
          <dd>{s.bankReference ?? t("notPaid")}</dd>
          <dt>{t("paidAt")}</dt>
          <dd>{s.paidAt ? formatDateTime(s.paidAt) : t("notPaid")}</dd>
        </dl>
        <p className="invoice-muted invoice-note">{t("feeNote")}</p>
      </article>
    </div>
  );
}
