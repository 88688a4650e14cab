import { CheckCircleOutlined, StopOutlined } from "@ant-design/icons";
import { Button, Form, Input, Modal, Popconfirm } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { UserDetail } from "../../../providers/api-types";
import { REMARK_MAX_LENGTH } from "../../../shared/user-actions";
import { banRequest, remarkProblem } from "./requests";
import { useUserAction } from "./use-user-action";

/** Bans a user (a remark is required, in a dialog) or lifts the ban (after confirmation). */
export function BanToggle({ user, onChanged }: { user: UserDetail; onChanged: () => void }) {
  const { t } = useTranslation("users");
  const { run, pending } = useUserAction();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ remark: string }>();
  const name = user.name;

  const send = async (ban: boolean, remark?: string) => {
    const done = await run(banRequest(user.id, ban, remark), {
      success: t(ban ? "actions.ban.banned" : "actions.ban.unbanned", { name }),
      failed: t(ban ? "actions.ban.banFailed" : "actions.ban.unbanFailed", { name }),
    });
    if (done !== undefined) {
      setOpen(false);
      form.resetFields();
      onChanged();
    }
  };

  if (user.isBanned) {
    return (
      <Popconfirm
        title={t("actions.ban.unbanTitle", { name })}
        description={t("actions.ban.unbanBody")}
        okText={t("actions.ban.unban")}
        cancelText={t("actions.cancel")}
        onConfirm={() => send(false)}
      >
        <Button icon={<CheckCircleOutlined aria-hidden />} loading={pending}>
          {t("actions.ban.unban")}
        </Button>
      </Popconfirm>
    );
  }

  return (
    <>
      <Button danger icon={<StopOutlined aria-hidden />} onClick={() => setOpen(true)}>
        {t("actions.ban.ban")}
      </Button>
      <Modal
        open={open}
        title={t("actions.ban.banTitle", { name })}
        okText={t("actions.ban.ban")}
        cancelText={t("actions.cancel")}
        okButtonProps={{ danger: true, loading: pending }}
        onOk={() => form.submit()}
        onCancel={() => {
          setOpen(false);
          form.resetFields();
        }}
        destroyOnHidden
      >
        <p>{t("actions.ban.banBody")}</p>
        <Form
          form={form}
          layout="vertical"
          onFinish={({ remark }) => send(true, remark)}
          preserve={false}
        >
          <Form.Item
            name="remark"
            label={t("actions.remark.label")}
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
            <Input.TextArea
              rows={4}
              showCount={{ formatter: ({ count }) => `${count} / ${REMARK_MAX_LENGTH}` }}
            />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
