import { CheckOutlined, PlayCircleOutlined, UserSwitchOutlined } from "@ant-design/icons";
import {
  useCustom,
  useCustomMutation,
  useInvalidate,
  useNotification,
  type HttpError,
} from "@refinedev/core";
import { Button, Form, Input, Modal, Select, Typography, type FormInstance } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { Refusal } from "../../app/components/refusal";
import { ModuleShow } from "../../app/kit/generated-show";
import { actionUrl, decisionErrorText } from "../../app/kit/decision";
import { ifMatchHeaders } from "../../app/kit/version-conflict";
import { MoneyInput } from "../../app/kit/form";
import {
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  needsApproval,
  pendingText,
  reasonHeaders,
  ReasonInput,
  useFourEyesThreshold,
  useRefreshChangeRequests,
} from "../../app/kit/four-eyes";
import { isPendingApproval, type PendingApprovalAnswer } from "../../shared/kit/four-eyes";
import { formatRinggit } from "../../shared/money";
import {
  REPORT_NOTE_MAX_LENGTH,
  REPORT_STEPS,
  userReports,
  type UserReportDto,
} from "../../shared/modules/user-reports";

/** The declared resolution (its route, its four eyes); this page draws its dialog (`ownDialog`). */
const RESOLVE = userReports.actions.resolve;

type Step = "assign" | "start" | "resolve";
const stepUrl = (id: number, step: Step) =>
  step === "resolve" ? actionUrl(userReports, RESOLVE, id) : `/api/user-reports/${id}/${step}`;

/**
 * Sends one workflow step; a refusal stays in the dialog in the staff member's words. A step
 * that waits for a second approver (202) is told as the change request it became, not as done.
 */
function useStep(report: UserReportDto) {
  const { t } = useTranslation(["userReport", "kit"]);
  const { mutateAsync, mutation } = useCustomMutation<
    UserReportDto | PendingApprovalAnswer,
    HttpError
  >();
  const invalidate = useInvalidate();
  const notification = useNotification();
  const refreshChangeRequests = useRefreshChangeRequests();
  const [error, setError] = useState<string>();
  const send = async (
    step: Step,
    values: object,
    done: (after: UserReportDto) => string,
    /** Headers beside the body: the maker's reason for a second approver. */
    headers?: Record<string, string>,
  ) => {
    setError(undefined);
    try {
      const { data } = await mutateAsync({
        url: stepUrl(report.id, step),
        method: "post",
        values,
        // Based on the report as shown (docs/versions.md): one changed since is refused (409).
        config: { headers: { ...ifMatchHeaders(userReports, report.id, report), ...headers } },
        successNotification: false,
        errorNotification: false,
      });
      if (isPendingApproval(data)) {
        // Nothing is resolved or refunded yet: say which request waits, and refresh the requests.
        notification.open?.({ type: "success", message: pendingText(t, [data]) });
        await refreshChangeRequests();
        return true;
      }
      notification.open?.({ type: "success", message: done(data) });
      await invalidate({ resource: userReports.name, invalidates: ["all"] });
      return true;
    } catch (failure) {
      setError(decisionErrorText(t, userReports, failure));
      // The report as it is now (someone else's change, or a step taken first).
      await invalidate({ resource: userReports.name, invalidates: ["all"] });
      return false;
    }
  };
  return { send, error, setError, pending: mutation.isPending };
}

/** A step asked for in a dialog: `show` opens it (its last refusal forgotten), `close` ends it. */
function useStepDialog(report: UserReportDto) {
  const step = useStep(report);
  const [open, setOpen] = useState(false);
  const show = () => {
    step.setError(undefined);
    setOpen(true);
  };
  return { ...step, open, show, close: () => setOpen(false) };
}

const allows = (report: UserReportDto, step: keyof typeof REPORT_STEPS) =>
  (REPORT_STEPS[step] as readonly string[]).includes(report.status);

/**
 * A step's button and its dialog: the button readies the form (`onOpen`) and opens the dialog,
 * which holds the form, the server's refusal under it, and the step's button again (`label`).
 */
function StepDialog({
  step,
  label,
  icon,
  primary,
  title,
  onOpen,
  onOk,
  children,
}: {
  step: ReturnType<typeof useStepDialog>;
  label: string;
  icon: ReactNode;
  primary?: boolean;
  title: string;
  onOpen: () => void;
  onOk: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation("userReport");
  return (
    <>
      <Button
        type={primary ? "primary" : undefined}
        icon={icon}
        onClick={() => {
          onOpen();
          step.show();
        }}
      >
        {label}
      </Button>
      <Modal
        open={step.open}
        title={title}
        okText={label}
        cancelText={t("workflow.cancel")}
        okButtonProps={{ loading: step.pending }}
        onOk={onOk}
        onCancel={step.close}
        destroyOnHidden
      >
        {children}
        {step.error && <Refusal title={t("workflow.failed")} reason={step.error} />}
      </Modal>
    </>
  );
}

function AssignButton({ report }: { report: UserReportDto }) {
  const { t } = useTranslation("userReport");
  const [form] = Form.useForm<{ assigneeId?: number }>();
  const step = useStepDialog(report);
  const { result } = useCustom<{ assignees: Array<{ value: number; label: string }> }>({
    url: "/api/user-reports/assignees",
    method: "get",
    queryOptions: { enabled: step.open },
  });
  const options = result.data?.assignees ?? [];
  return (
    <StepDialog
      step={step}
      label={t("workflow.assign")}
      icon={<UserSwitchOutlined aria-hidden />}
      title={t("workflow.assignTitle", { name: report.reference })}
      onOpen={() => form.setFieldsValue({ assigneeId: report.assigneeId ?? undefined })}
      onOk={() => form.submit()}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={({ assigneeId }) =>
          void step
            .send("assign", { assigneeId }, (after) =>
              t("workflow.assigned", { name: after.reference, assignee: after.assigneeName }),
            )
            .then((ok) => ok && step.close())
        }
      >
        <Form.Item
          name="assigneeId"
          label={t("workflow.assignee")}
          rules={[{ required: true, message: t("workflow.assigneeRequired") }]}
        >
          <Select options={options} showSearch optionFilterProp="label" />
        </Form.Item>
      </Form>
    </StepDialog>
  );
}

function StartButton({ report }: { report: UserReportDto }) {
  const { t } = useTranslation("userReport");
  const { send, error, pending } = useStep(report);
  return (
    <>
      <Button
        icon={<PlayCircleOutlined aria-hidden />}
        loading={pending}
        aria-label={t("workflow.startFor", { name: report.reference })}
        onClick={() =>
          void send("start", {}, (after) => t("workflow.started", { name: after.reference }))
        }
      >
        {t("workflow.start")}
      </Button>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
    </>
  );
}

interface ResolveValues {
  note?: string;
  refundSen?: number;
  /** The maker's reason for a second approver: sent as a header, never in the body. */
  [CHANGE_REASON_FIELD]?: string;
}

/**
 * The refund of a transaction dispute (at most what remains of its payment), and its four eyes:
 * the notice of the policy's refund threshold (and whether the typed refund is above it), and
 * the reason for the approver once it is.
 */
function RefundInputs({
  report,
  refundable,
  form,
}: {
  report: UserReportDto;
  refundable: number;
  form: FormInstance<ResolveValues>;
}) {
  const { t } = useTranslation("userReport");
  const thresholdSen = useFourEyesThreshold(RESOLVE.fourEyes);
  const refundSen = Form.useWatch("refundSen", form);
  const waits = needsApproval(RESOLVE.fourEyes, refundSen, thresholdSen) === true;
  return (
    <>
      <FourEyesNotice decl={RESOLVE.fourEyes} amountSen={refundSen} thresholdSen={thresholdSen} />
      <Form.Item
        name="refundSen"
        label={t("workflow.refund")}
        extra={t("workflow.refundHelp", {
          refundable: formatRinggit(refundable),
          payment: report.paymentReference,
        })}
        rules={[
          {
            type: "number",
            max: refundable,
            message: t("workflow.refundTooMuch", { refundable: formatRinggit(refundable) }),
          },
        ]}
      >
        <MoneyInput />
      </Form.Item>
      {waits && <ReasonInput />}
    </>
  );
}

function ResolveButton({ report }: { report: UserReportDto }) {
  const { t } = useTranslation("userReport");
  const [form] = Form.useForm<ResolveValues>();
  const step = useStepDialog(report);
  const refundable =
    report.type === "transaction_dispute" && report.refundableSen ? report.refundableSen : 0;
  // The reason is among the values only while its input is shown (a refund above the threshold).
  const resolve = ({ note, refundSen, [CHANGE_REASON_FIELD]: reason }: ResolveValues) =>
    void step
      .send(
        "resolve",
        { note, ...(refundSen ? { refundSen } : {}) },
        (after) =>
          refundSen
            ? t("workflow.resolvedWithRefund", {
                name: after.reference,
                amount: formatRinggit(refundSen),
              })
            : t("workflow.resolved", { name: after.reference }),
        reasonHeaders(reason),
      )
      .then((ok) => ok && step.close());
  return (
    <StepDialog
      step={step}
      label={t("workflow.resolve")}
      icon={<CheckOutlined aria-hidden />}
      primary
      title={t("workflow.resolveTitle", { name: report.reference })}
      onOpen={() => form.resetFields()}
      onOk={() => form.submit()}
    >
      <Typography.Paragraph>{t("workflow.resolveIntro")}</Typography.Paragraph>
      <Form<ResolveValues> form={form} layout="vertical" onFinish={resolve}>
        <Form.Item
          name="note"
          label={t("workflow.note")}
          rules={[
            { required: true, whitespace: true, message: t("workflow.noteRequired") },
            {
              max: REPORT_NOTE_MAX_LENGTH,
              message: t("workflow.noteTooLong", { max: REPORT_NOTE_MAX_LENGTH }),
            },
          ]}
        >
          <Input.TextArea rows={3} />
        </Form.Item>
        {refundable > 0 && <RefundInputs report={report} refundable={refundable} form={form} />}
      </Form>
    </StepDialog>
  );
}

/**
 * A report's detail page: the workflow's steps beside the kit's reject and reopen. Resolve is a
 * declared action whose dialog this page draws (the kit draws no button for it: `ownDialog`).
 */
export default function UserReportShow() {
  return (
    <ModuleShow
      module={userReports}
      headerExtra={(row) => {
        const report = row as unknown as UserReportDto;
        return (
          <>
            {allows(report, "assign") && <AssignButton report={report} />}
            {allows(report, "start") && <StartButton report={report} />}
            {allows(report, "resolve") && <ResolveButton report={report} />}
          </>
        );
      }}
    />
  );
}
