import { PrinterOutlined } from "@ant-design/icons";
import { Alert, Button, DatePicker, Form, Modal, Select, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { downloadFile } from "../../app/components/download";
import { LANGUAGE_NAMES } from "../../app/layout/language-switcher";
import { isApiError, translateApiError } from "../../providers/errors";
import { currentLanguage } from "../../providers/http";
import { ADMIN_LANGUAGES, type AdminLanguage } from "../../shared/domain";
import { daysSpanned } from "../../shared/days";
import { STATEMENT_MAX_DAYS } from "../../shared/modules/wallet-statement";
import { DAY_FORMAT } from "../../app/format";

interface Values {
  period?: [Dayjs, Dayjs] | null;
  lang: AdminLanguage;
}

/** The statement PDF of a period on the API. */
const statementPath = (userId: number, from: Dayjs, to: Dayjs, lang: AdminLanguage) =>
  `/api/users/${encodeURIComponent(String(userId))}/statement.pdf?${new URLSearchParams({
    from: from.format(DAY_FORMAT),
    to: to.format(DAY_FORMAT),
    lang,
  }).toString()}`;

/** How many calendar days a period spans, both counted, by the server's rule. */
const spanned = ([from, to]: [Dayjs, Dayjs]) =>
  daysSpanned(from.format(DAY_FORMAT), to.format(DAY_FORMAT));

/**
 * "Print statement" on a user's page: a period (this month so far, by default) and a language,
 * then the PDF the server draws (at most STATEMENT_MAX_DAYS days, checked here before asking).
 */
export function PrintStatement({
  userId,
  accountNumber,
}: {
  userId: number;
  accountNumber: string;
}) {
  const { t } = useTranslation(["statement", "errors", "common"]);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [form] = Form.useForm<Values>();
  const initialValues: Values = {
    period: [dayjs().startOf("month"), dayjs()],
    lang: currentLanguage() as AdminLanguage,
  };

  const download = async ({ period, lang }: Values) => {
    if (!period) return;
    setBusy(true);
    setFailure(undefined);
    const [from, to] = period;
    try {
      await downloadFile(
        statementPath(userId, from, to, lang),
        `statement-${accountNumber}-${from.format(DAY_FORMAT)}-${to.format(DAY_FORMAT)}.pdf`,
      );
      setOpen(false);
    } catch (error) {
      setFailure(
        isApiError(error)
          ? translateApiError(error, (key, options) => String(t(key, options)))
          : t("print.failed"),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button icon={<PrinterOutlined aria-hidden />} onClick={() => setOpen(true)}>
        {t("print.button")}
      </Button>
      <Modal
        open={open}
        title={t("print.title")}
        okText={t("print.download")}
        cancelText={t("print.cancel")}
        confirmLoading={busy}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          {t("print.body", { maxDays: STATEMENT_MAX_DAYS })}
        </Typography.Paragraph>
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onFinish={(values) => void download(values)}
        >
          <Form.Item
            name="period"
            label={t("print.period")}
            rules={[
              { required: true, message: t("print.choosePeriod") },
              {
                validator: async (_, value: [Dayjs, Dayjs] | null | undefined) => {
                  if (value && spanned(value) > STATEMENT_MAX_DAYS) {
                    throw new Error(t("print.tooLong", { maxDays: STATEMENT_MAX_DAYS }));
                  }
                },
              },
            ]}
          >
            <DatePicker.RangePicker
              format={DAY_FORMAT}
              placeholder={[t("print.from"), t("print.to")]}
              disabledDate={(day) => day.isAfter(dayjs(), "day")}
              style={{ width: "100%" }}
            />
          </Form.Item>
          <Form.Item name="lang" label={t("print.language")}>
            <Select
              options={ADMIN_LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
            />
          </Form.Item>
        </Form>
        {failure && <Alert type="error" showIcon message={failure} />}
      </Modal>
    </>
  );
}
