import { useCustomMutation } from "@refinedev/core";
import { Form, Input, Modal } from "antd";
import { useTranslation } from "react-i18next";
import type { RiderDetails, UserDetail } from "../../../providers/api-types";
import { VERIFICATION_REMARKS_MAX_LENGTH } from "../../../shared/riders";
import { riderErrorNotification } from "./errors";
import { RIDER_VERIFICATION_URL, riderVerificationBody, type RiderDecision } from "./requests";
import { useRefreshUser } from "./use-refresh";

interface VerificationDialogProps {
  user: UserDetail;
  action: RiderDecision;
  onClose: () => void;
  onDone: () => void;
}

/** Approves or rejects a pending rider; remarks are required when rejecting. */
export function VerificationDialog({ user, action, onClose, onDone }: VerificationDialogProps) {
  const { t } = useTranslation("riders");
  const [form] = Form.useForm<{ remarks?: string }>();
  const refreshUser = useRefreshUser(user);
  const { mutate, mutation } = useCustomMutation<RiderDetails>();
  const approving = action === "Approved";
  const max = VERIFICATION_REMARKS_MAX_LENGTH;

  const submit = ({ remarks = "" }: { remarks?: string }) =>
    mutate(
      {
        url: RIDER_VERIFICATION_URL,
        method: "post",
        values: riderVerificationBody(user.accountNumber, action, remarks),
        successNotification: {
          type: "success",
          message: t(approving ? "verify.approved" : "verify.rejected"),
        },
        errorNotification: riderErrorNotification(t, t("verify.failed")),
      },
      {
        onSuccess: () => {
          refreshUser();
          onDone();
          onClose();
        },
        onError: (error) => {
          if ((error as { statusCode?: number }).statusCode === 409) {
            refreshUser();
            onDone();
            onClose();
          }
        },
      },
    );

  return (
    <Modal
      open
      title={t(approving ? "verify.approveTitle" : "verify.rejectTitle", { name: user.name })}
      okText={t(approving ? "verify.approve" : "verify.reject")}
      okButtonProps={{ danger: !approving, loading: mutation.isPending }}
      cancelText={t("common:cancel")}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={!approving}>
        <Form.Item
          name="remarks"
          label={t("verify.remarks")}
          rules={[
            {
              required: !approving,
              whitespace: true,
              message: t("verify.remarksRequired"),
            },
            { max, message: t("verify.remarksTooLong", { max }) },
          ]}
        >
          <Input.TextArea rows={4} showCount maxLength={max} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
