import { PlayCircleOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate, useNotification, type HttpError } from "@refinedev/core";
import { Alert, Button, DatePicker, Form, Modal, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";

import { decisionErrorText } from "../../app/kit/decision";
import { formatRinggit } from "../../shared/money";
import {
  merchantSummary,
  settlements,
  type SettlementRunResult,
} from "../../shared/modules/settlements";
import { DAY_FORMAT } from "../../app/format";

/** Yesterday: the last business day a run may settle (the server decides in its time zone). */
const yesterday = () => dayjs().subtract(1, "day").startOf("day");

/**
 * "Run settlement": asks for the last business day to settle (yesterday by default, never today
 * or later), runs it, and says how many settlements it made; a refusal stays in the dialog.
 */
export function RunSettlement() {
  const { t } = useTranslation(["settlement", "kit"]);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ periodEnd?: Dayjs }>();
  const { mutateAsync, mutation } = useCustomMutation<SettlementRunResult, HttpError>();
  const invalidate = useInvalidate();
  const notification = useNotification();
  const [error, setError] = useState<string>();

  const run = async ({ periodEnd }: { periodEnd?: Dayjs }) => {
    if (!periodEnd) return;
    setError(undefined);
    try {
      const { data } = await mutateAsync({
        url: "/api/settlements/run",
        method: "post",
        values: { periodEnd: periodEnd.format(DAY_FORMAT) },
        successNotification: false,
        errorNotification: false,
      });
      notification.open?.({
        type: "success",
        message: t("run.done", {
          count: data.created,
          periodEnd: data.periodEnd,
          items: data.items,
          net: formatRinggit(data.netSen),
        }),
      });
      await Promise.all([
        invalidate({ resource: settlements.name, invalidates: ["all"] }),
        invalidate({ resource: merchantSummary.name, invalidates: ["all"] }),
      ]);
      setOpen(false);
    } catch (failure) {
      setError(decisionErrorText(t, settlements, failure));
    }
  };

  return (
    <>
      <Button
        type="primary"
        icon={<PlayCircleOutlined aria-hidden />}
        onClick={() => {
          form.setFieldsValue({ periodEnd: yesterday() });
          setError(undefined);
          setOpen(true);
        }}
      >
        {t("run.button")}
      </Button>
      <Modal
        open={open}
        title={t("run.title")}
        okText={t("run.submit")}
        cancelText={t("run.cancel")}
        okButtonProps={{ loading: mutation.isPending }}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        maskClosable={false}
        destroyOnHidden
      >
        <Typography.Paragraph>{t("run.intro")}</Typography.Paragraph>
        <Form<{ periodEnd?: Dayjs }> form={form} layout="vertical" onFinish={(v) => void run(v)}>
          <Form.Item
            name="periodEnd"
            label={t("run.periodEnd")}
            rules={[{ required: true, message: t("run.periodEndRequired") }]}
          >
            <DatePicker
              format={DAY_FORMAT}
              disabledDate={(day) => day.isAfter(yesterday(), "day")}
              style={{ width: 200 }}
            />
          </Form.Item>
        </Form>
        {error && <Alert type="error" showIcon message={t("run.failed")} description={error} />}
      </Modal>
    </>
  );
}
