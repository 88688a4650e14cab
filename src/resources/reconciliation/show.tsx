import { CheckCircleFilled, CloseCircleFilled, ReloadOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate, useNotification, type HttpError } from "@refinedev/core";
import { Alert, Button, Card, Descriptions, Modal, Space, Table, Tag, Typography } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { formatDate } from "../../app/format";
import { decisionErrorText } from "../../app/kit/decision";
import { ModuleShow } from "../../app/kit/generated-show";
import { moduleNamed } from "../../app/kit/links";
import { RecordLink } from "../../app/kit/record-link";
import { formatRinggit } from "../../shared/money";
import {
  reconciliation,
  type ReconciliationCheck,
  type ReconciliationDayDto,
} from "../../shared/modules/reconciliation";
import { TAG_COLOURS } from "../../app/kit/tag-colours";

type Difference = ReconciliationCheck["differences"][number];

/** The pages a difference links to: a ledger row, a user, a settlement, a business. */
function Linked({ to, id, children }: { to: string; id: number; children: ReactNode }) {
  const module = moduleNamed(to);
  return module ? (
    <RecordLink to={module} id={id}>
      {children}
    </RecordLink>
  ) : (
    <>{children}</>
  );
}

/** Figures in sen are money; the previous close's source and counts are words and numbers. */
function FigureValue({ name, value }: { name: string; value: unknown }) {
  const { t } = useTranslation("reconciliation");
  if (name === "previousCloseFrom") return <>{t(`checks.from.${String(value)}`)}</>;
  if (typeof value !== "number") return <>{String(value ?? "")}</>;
  return <>{/Sen$/.test(name) ? formatRinggit(value) : value.toLocaleString("en-US")}</>;
}

/** The order figures are read in (the database keeps a check's figures without their order). */
const FIGURE_ORDER = [
  "wallets",
  "rows",
  "rowsChained",
  "brokenLinks",
  "balanceMismatches",
  "previousCloseSen",
  "previousCloseFrom",
  "topUpsSen",
  "paymentsSen",
  "refundsSen",
  "reversalsSen",
  "adjustmentsSen",
  "expectedCloseSen",
  "closingFloatSen",
  "differenceSen",
  "settlements",
  "items",
  "grossSen",
  "refundSen",
  "feeSen",
  "netSen",
  "inTwoSettlements",
  "success",
  "successSen",
  "rollUpCount",
  "rollUpSen",
  "pending",
  "failed",
  "reversed",
];
const CHANNEL_ORDER = ["fpx", "card", "agent", "counter", "none"];

/** A check's figures in reading order: by channel, then by figure. */
function ordered(figures: Record<string, unknown>) {
  const rank = (name: string) => {
    const [head, tail] = name.includes(".") ? name.split(".", 2) : ["", name];
    return CHANNEL_ORDER.indexOf(head!) * 100 + FIGURE_ORDER.indexOf(tail!);
  };
  return Object.entries(figures).sort(([a], [b]) => rank(a) - rank(b));
}

/** A figure's label: `fpx.successSen` reads "FPX: successful (amount)". */
function figureLabel(t: (key: string) => string, name: string) {
  const [head, tail] = name.includes(".") ? name.split(".", 2) : [undefined, name];
  const label = t(`checks.figureNames.${tail}`);
  return head ? `${t(`checks.channels.${head}`)}: ${label}` : label;
}

/** The record a difference names, linked to its page when the administrator may open it. */
function DifferenceRecord({ difference }: { difference: Difference }) {
  const { t } = useTranslation("reconciliation");
  const parts = [];
  if (difference.transactionId !== undefined) {
    parts.push(
      <Linked key="tx" to="wallet-transactions" id={difference.transactionId}>
        {t("checks.transaction", { id: difference.transactionId })}
      </Linked>,
    );
  }
  if (difference.userId !== undefined) {
    parts.push(
      <Linked key="user" to="users" id={difference.userId}>
        {difference.accountNumber ?? `#${difference.userId}`}
      </Linked>,
    );
  }
  for (const id of difference.settlementIds ??
    (difference.settlementId === undefined ? [] : [difference.settlementId])) {
    parts.push(
      <Linked key={`s${id}`} to="settlements" id={id}>
        {difference.field
          ? t("checks.settlementFigure", {
              id,
              field: t(`checks.figureNames.${difference.field}`),
            })
          : t("checks.settlement", { id })}
      </Linked>,
    );
  }
  if (difference.businessId !== undefined) {
    parts.push(
      <Linked key="business" to="businesses" id={difference.businessId}>
        {difference.businessName ?? `#${difference.businessId}`}
      </Linked>,
    );
  }
  if (difference.channel)
    parts.push(<Tag key="ch">{t(`checks.channels.${difference.channel}`)}</Tag>);
  if (difference.status) parts.push(<Tag key="st">{difference.status}</Tag>);
  return (
    <Space wrap size={4}>
      {parts}
    </Space>
  );
}

/** An amount, or a count where the figure is one (a settlement's payments). */
const amount = (difference: Difference, value: number | undefined) =>
  value === undefined
    ? ""
    : difference.field && !/Sen$/.test(difference.field)
      ? value.toLocaleString("en-US")
      : formatRinggit(value);

function CheckCard({ check }: { check: ReconciliationCheck }) {
  const { t } = useTranslation("reconciliation");
  return (
    <Card
      size="small"
      title={
        <Space>
          {check.passed ? (
            <CheckCircleFilled style={{ color: "#389e0d" }} aria-hidden />
          ) : (
            <CloseCircleFilled style={{ color: "#cf1322" }} aria-hidden />
          )}
          {t(`checks.names.${check.name}`)}
          {/* The kit's tag colours: antd's presets fall short of 4.5:1 (axe, light theme). */}
          <Tag style={TAG_COLOURS[check.passed ? "green" : "red"]}>
            {t(check.passed ? "checks.passed" : "checks.failed")}
          </Tag>
        </Space>
      }
      data-check={check.name}
    >
      <Typography.Paragraph type="secondary">
        {t(`checks.about.${check.name}`)}
      </Typography.Paragraph>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, sm: 1, md: 2, lg: 3 }}
        items={ordered(check.figures).map(([name, value]) => ({
          key: name,
          label: figureLabel(t, name),
          children: <FigureValue name={name} value={value} />,
        }))}
      />
      {check.differenceCount > 0 && (
        <>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t("checks.differences")}
          </Typography.Title>
          {check.differenceCount > check.differences.length && (
            <Typography.Paragraph type="secondary">
              {t("checks.moreDifferences", {
                shown: check.differences.length,
                count: check.differenceCount,
              })}
            </Typography.Paragraph>
          )}
          <Table<Difference>
            size="small"
            pagination={false}
            scroll={{ x: 640 }}
            rowKey={(row) =>
              `${row.kind}-${row.transactionId ?? ""}-${row.settlementId ?? ""}-${row.field ?? ""}-${row.channel ?? ""}-${row.userId ?? ""}`
            }
            dataSource={check.differences}
            columns={[
              {
                key: "kind",
                title: t("checks.columns.kind"),
                render: (_, row) => t(`checks.kinds.${row.kind}`),
                width: 220,
              },
              {
                key: "record",
                title: t("checks.columns.record"),
                render: (_, row) => <DifferenceRecord difference={row} />,
              },
              {
                key: "expected",
                title: t("checks.columns.expected"),
                align: "right",
                render: (_, row) => amount(row, row.expectedSen),
              },
              {
                key: "actual",
                title: t("checks.columns.actual"),
                align: "right",
                render: (_, row) => amount(row, row.actualSen),
              },
              {
                key: "difference",
                title: t("checks.columns.difference"),
                align: "right",
                render: (_, row) => (
                  <Typography.Text strong>{amount(row, row.differenceSen)}</Typography.Text>
                ),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}

/** "Run again": the day's checks run again (the server refuses a day not over). */
function RunAgain({ day, refetch }: { day: string; refetch: () => void }) {
  const { t } = useTranslation(["reconciliation", "kit"]);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const { mutateAsync, mutation } = useCustomMutation<ReconciliationDayDto, HttpError>();
  const invalidate = useInvalidate();
  const notification = useNotification();
  const run = async () => {
    setError(undefined);
    try {
      const { data } = await mutateAsync({
        url: "/api/reconciliation/run",
        method: "post",
        values: { day },
        successNotification: false,
        errorNotification: false,
      });
      notification.open?.({
        type: "success",
        message: t("run.done", { day, result: t(`status.${data.status}`) }),
      });
      await invalidate({ resource: reconciliation.name, invalidates: ["all"] });
      refetch();
      setOpen(false);
    } catch (failure) {
      setError(decisionErrorText(t, reconciliation, failure));
    }
  };
  return (
    <>
      <Button icon={<ReloadOutlined aria-hidden />} onClick={() => setOpen(true)}>
        {t("run.button")}
      </Button>
      <Modal
        open={open}
        title={t("run.title", { day })}
        okText={t("run.button")}
        okButtonProps={{ loading: mutation.isPending }}
        onOk={() => void run()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>{t("run.intro")}</Typography.Paragraph>
        {error && <Alert type="error" showIcon message={t("run.failed")} description={error} />}
      </Modal>
    </>
  );
}

/** A reconciled day: its result, each check with its figures and differences, and its history. */
export default function ReconciliationShow() {
  const { t } = useTranslation("reconciliation");
  return (
    <ModuleShow
      module={reconciliation}
      render={{ day: (value) => formatDate(String(value)) }}
      headerExtra={(row, refetch) => <RunAgain day={String(row.day)} refetch={refetch} />}
      after={(row) => (
        <section style={{ marginTop: 16 }} aria-label={t("checks.title")}>
          <Typography.Title level={4}>{t("checks.title")}</Typography.Title>
          <Space direction="vertical" size="middle" style={{ width: "100%" }}>
            {((row as unknown as ReconciliationDayDto).checks ?? []).map((check) => (
              <CheckCard key={check.name} check={check} />
            ))}
          </Space>
        </section>
      )}
    />
  );
}
