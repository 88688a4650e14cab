import { CheckOutlined, CloseOutlined } from "@ant-design/icons";
import { useCustomMutation, type OpenNotificationParams } from "@refinedev/core";
import { Button, Form, Input, Modal, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorCodeOf, FORM_ERROR_KEY_PREFIX } from "../../app/components/notifications";
import type { ChangeContactSubmissionDto } from "../../providers/api-types";
import { translateApiError, type Translate } from "../../providers/errors";
import { REMARK_MAX_LENGTH } from "../../shared/user-actions";

export type Decision = "approve" | "reject";

/** Codes the decision answers with, explained in the `contact` namespace. */
const OWN_CODES = ["ALREADY_DECIDED", "EMAIL_TAKEN"] as const;

export function decisionErrorText(error: unknown, t: Translate): string {
  const code = errorCodeOf(error);
  const own = OWN_CODES.find((candidate) => candidate === code);
  return own ? t(`contact:errors.${own}`) : translateApiError(error, t);
}

/** What is wrong with a remark, as a `contact:` key, or undefined. */
export function remarkProblem(remark: string | undefined): string | undefined {
  const trimmed = (remark ?? "").trim();
  if (trimmed === "") return "decision.remarkRequired";
  if (trimmed.length > REMARK_MAX_LENGTH) return "decision.remarkTooLong";
  return undefined;
}

export const decisionPath = (id: number) => `/api/change-contact-submissions/${id}`;

/** Approve and Reject for one pending submission, each asking for a remark first. */
export function DecisionButtons({
  submission,
  onDecided,
}: {
  submission: ChangeContactSubmissionDto;
  onDecided: () => void;
}) {
  const { t } = useTranslation("contact");
  const [decision, setDecision] = useState<Decision | null>(null);
  const [form] = Form.useForm<{ remark: string }>();
  const { mutateAsync, mutation } = useCustomMutation<ChangeContactSubmissionDto>();
  const name = submission.userName;

  const close = () => {
    setDecision(null);
    form.resetFields();
  };

  const send = async (action: Decision, remark: string) => {
    try {
      await mutateAsync({
        url: decisionPath(submission.id),
        method: "patch",
        values: { action, remark: remark.trim() },
        successNotification: () => ({
          type: "success",
          message: t(`decision.${action}d`, { name }),
        }),
        errorNotification: (error): OpenNotificationParams | false => {
          const code = errorCodeOf(error);
          if (code === undefined) return false;
          return {
            key: `${FORM_ERROR_KEY_PREFIX}${code}`,
            type: "error",
            message: t("decision.failed", { name }),
            description: decisionErrorText(error, t),
          };
        },
      });
      close();
      onDecided();
    } catch (error) {
      // Explained by the notification above or by the central error handler. Someone else
      // decided it meanwhile: the row is stale, so show the list as it is now.
      if (errorCodeOf(error) === "ALREADY_DECIDED") {
        close();
        onDecided();
      }
    }
  };

  return (
    <>
      <Space size={8} wrap>
        <Button
          size="small"
          type="primary"
          icon={<CheckOutlined aria-hidden />}
          onClick={() => setDecision("approve")}
          aria-label={t("decision.approveFor", { name })}
        >
          {t("decision.approve")}
        </Button>
        <Button
          size="small"
          danger
          icon={<CloseOutlined aria-hidden />}
          onClick={() => setDecision("reject")}
          aria-label={t("decision.rejectFor", { name })}
        >
          {t("decision.reject")}
        </Button>
      </Space>
      <Modal
        open={decision !== null}
        title={decision ? t(`decision.${decision}Title`, { name }) : undefined}
        okText={decision ? t(`decision.${decision}`) : undefined}
        cancelText={t("decision.cancel")}
        okButtonProps={{ danger: decision === "reject", loading: mutation.isPending }}
        onOk={() => form.submit()}
        onCancel={close}
        destroyOnHidden
      >
        <p>
          {t(`contactType.${submission.contactType}`)}: {submission.oldValue ?? t("none")} →{" "}
          {submission.newValue}
        </p>
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          onFinish={({ remark }) => decision && send(decision, remark)}
        >
          <Form.Item
            name="remark"
            label={t("decision.remark")}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  const problem = remarkProblem(value);
                  return problem
                    ? Promise.reject(new Error(t(problem, { max: REMARK_MAX_LENGTH })))
                    : Promise.resolve();
                },
              },
            ]}
          >
            <Input.TextArea rows={3} showCount maxLength={REMARK_MAX_LENGTH + 1} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
