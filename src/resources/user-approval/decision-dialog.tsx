import { useNotification } from "@refinedev/core";
import { Alert, Button, Form, Input, Modal, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserDto } from "../../providers/api-types";
import { REMARK_MAX_LENGTH } from "../../shared/user-actions";
import {
  decisionErrorText,
  remarkProblem,
  useApprovalDecisions,
  type ApprovalAction,
  type DecisionOutcome,
} from "./decisions";

interface DecisionDialogProps {
  action: ApprovalAction;
  /** One user (a row's button) or several (the selection). */
  users: readonly UserDto[];
  /** Called once the run is over, whatever its outcome, with what happened. */
  onDecided: (outcome: DecisionOutcome) => void;
  onClose: () => void;
}

interface DecisionForm {
  remark?: string;
}

/**
 * Asks for the remark every decision needs (1–500 characters, trimmed; counted as typed), then
 * decides the users one after another. Successes close the dialog with a toast; failures stay
 * listed in it, each with its reason.
 */
export function DecisionDialog({ action, users, onDecided, onClose }: DecisionDialogProps) {
  const { t } = useTranslation("approval");
  const { open } = useNotification();
  const [form] = Form.useForm<DecisionForm>();
  const { decide, progress } = useApprovalDecisions();
  const [outcome, setOutcome] = useState<DecisionOutcome>();
  const bulk = users.length > 1;
  const approving = action === "approve";
  const name = users[0]?.name ?? "";
  const count = users.length;

  const title = bulk
    ? t(approving ? "dialog.approveTitleBulk" : "dialog.rejectTitleBulk", { count })
    : t(approving ? "dialog.approveTitle" : "dialog.rejectTitle", { name });
  const intro = bulk
    ? t(approving ? "dialog.approveIntroBulk" : "dialog.rejectIntroBulk")
    : t(approving ? "dialog.approveIntro" : "dialog.rejectIntro");

  const announce = (result: DecisionOutcome) => {
    const succeeded = result.succeeded.length;
    if (succeeded > 0) {
      const message =
        result.failures.length > 0
          ? t(approving ? "result.partialApproved" : "result.partialRejected", {
              succeeded,
              total: result.total,
            })
          : succeeded > 1
            ? t(approving ? "result.approvedBulk" : "result.rejectedBulk", { count: succeeded })
            : t(approving ? "result.approved" : "result.rejected", {
                name: result.succeeded[0]?.name ?? "",
              });
      open?.({ type: "success", message });
    }
    // Failures stay listed in the dialog, each with its reason; the console's error handler has
    // already toasted every failure that came without a code, so nothing more is shown here.
  };

  const submit = async ({ remark = "" }: DecisionForm) => {
    const result = await decide(users, action, remark);
    announce(result);
    onDecided(result);
    if (result.failures.length === 0) onClose();
    else setOutcome(result);
  };

  const running = progress !== undefined;

  if (outcome) {
    return (
      <Modal
        open
        title={title}
        onCancel={onClose}
        footer={<Button onClick={onClose}>{t("dialog.close")}</Button>}
      >
        <Alert
          type={outcome.succeeded.length > 0 ? "warning" : "error"}
          showIcon
          message={t("result.failedTitle", { count: outcome.failures.length })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {outcome.failures.map(({ user, error }) => (
                <li key={user.id}>
                  {t("result.failure", {
                    name: user.name,
                    accountNumber: user.accountNumber,
                    message: decisionErrorText(error, t),
                  })}
                </li>
              ))}
            </ul>
          }
        />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={title}
      okText={t(approving ? "action.approve" : "action.reject")}
      okButtonProps={{ danger: !approving, loading: running }}
      cancelText={t("dialog.cancel")}
      cancelButtonProps={{ disabled: running }}
      closable={!running}
      maskClosable={false}
      keyboard={!running}
      onOk={() => form.submit()}
      onCancel={() => {
        if (!running) onClose();
      }}
    >
      <Typography.Paragraph>{intro}</Typography.Paragraph>
      {bulk && (
        <Typography.Paragraph type="secondary">
          {users.map((user) => user.name).join(", ")}
        </Typography.Paragraph>
      )}
      <Form<DecisionForm>
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        disabled={running}
      >
        <Form.Item
          name="remark"
          label={t("dialog.remark")}
          required
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const problem = remarkProblem(value);
                if (problem === "required") {
                  return Promise.reject(new Error(t("dialog.remarkRequired")));
                }
                if (problem === "tooLong") {
                  return Promise.reject(
                    new Error(t("dialog.remarkTooLong", { max: REMARK_MAX_LENGTH })),
                  );
                }
                return Promise.resolve();
              },
            },
          ]}
        >
          <Input.TextArea
            rows={4}
            autoFocus
            placeholder={t("dialog.remarkPlaceholder")}
            count={{
              show: true,
              max: REMARK_MAX_LENGTH,
              strategy: (text) => text.trim().length,
            }}
          />
        </Form.Item>
      </Form>
      {progress && bulk && (
        <Typography.Text type="secondary" role="status">
          {t("dialog.progress", { ...progress })}
        </Typography.Text>
      )}
    </Modal>
  );
}
