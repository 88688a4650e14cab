import { ArrowLeftOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Alert, Button, Flex, Modal } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import type { ModuleDecl } from "../../shared/kit/module";
import { PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { decisionErrorText } from "./decision";
import { DeclaredForm } from "./form";
import { moduleText, titleOf } from "./texts";
import { useModule } from "./use-module";

type Row = { id: number } & Record<string, unknown>;

/**
 * A module's create screen drawn from its declared form: the inputs with the server's rules,
 * the server's refusal in the staff member's words above the buttons (nothing is saved then),
 * and the new record's page once it is created. `aside` shows beside the form (the limits a
 * top-up must keep).
 */
export function ModuleCreate({
  module,
  aside,
  initialValues,
  review,
}: {
  module: ModuleDecl;
  aside?: ReactNode;
  /** What the inputs start with (a new policy version starts from the one in force). */
  initialValues?: Record<string, unknown>;
  /** Shown for confirmation before anything is sent (old → new); nothing is sent until OK. */
  review?: (body: Record<string, unknown>) => { content: ReactNode; unchanged?: boolean };
}) {
  const decl = module.create!;
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string>();
  const [pending, setPending] = useState<Record<string, unknown>>();
  const { formProps, saveButtonProps, onFinish } = useForm<Row, HttpError>({
    resource: module.name,
    action: "create",
    redirect: module.paths.show ? "show" : "list",
    successNotification: (data) => ({
      type: "success",
      message: text("create.created", { name: data ? titleOf(module, data.data) : "" }),
    }),
    // The refusal stays on the form, where the staff member can read it and correct the input.
    errorNotification: false,
    onMutationError: (error) => setRefusal(decisionErrorText(t, module, error)),
  });
  // A refusal is shown on the form (onMutationError); the rejected promise has nothing left to say.
  const send = (body: Record<string, unknown>) => onFinish(body).catch(() => undefined);

  return (
    <>
      <PageHeader
        title={text("create.title")}
        back={
          <Button
            type="text"
            icon={<ArrowLeftOutlined aria-hidden />}
            aria-label={text("create.back")}
            onClick={() => navigate(module.paths.list)}
          />
        }
      />
      <Flex gap={16} wrap align="flex-start">
        <Panel style={{ flex: "1 1 420px" }}>
          <DeclaredForm
            module={module}
            decl={decl}
            formProps={formProps}
            saveButtonProps={saveButtonProps}
            initialValues={initialValues}
            refusal={refusal}
            onEdit={() => setRefusal(undefined)}
            onBody={(body) => (review ? setPending(body) : void send(body))}
            onCancel={() => navigate(module.paths.list)}
            words={{
              failed: text("create.failed"),
              submit: text("create.submit"),
              cancel: text("create.cancel"),
            }}
          />
        </Panel>
        {aside}
      </Flex>
      {pending && review && (
        <ReviewDialog
          title={text("create.reviewTitle")}
          okText={text("create.submit")}
          cancelText={text("create.cancel")}
          review={review(pending)}
          unchangedText={text("create.unchanged")}
          onOk={async () => {
            setPending(undefined);
            await send(pending);
          }}
          onCancel={() => setPending(undefined)}
        />
      )}
    </>
  );
}

function ReviewDialog({
  title,
  okText,
  cancelText,
  review,
  unchangedText,
  onOk,
  onCancel,
}: {
  title: string;
  okText: string;
  cancelText: string;
  review: { content: ReactNode; unchanged?: boolean };
  unchangedText: string;
  onOk: () => Promise<void>;
  onCancel: () => void;
}) {
  return (
    <Modal
      open
      title={title}
      okText={okText}
      cancelText={cancelText}
      okButtonProps={{ disabled: review.unchanged }}
      onOk={onOk}
      onCancel={onCancel}
      width={640}
    >
      {review.content}
      {review.unchanged && <Alert type="info" showIcon message={unchangedText} />}
    </Modal>
  );
}

/** The create page of a module that needs nothing beyond its declaration. */
export default function GeneratedCreate() {
  return <ModuleCreate module={useModule()} />;
}
