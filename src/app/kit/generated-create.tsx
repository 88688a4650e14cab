import { Alert, Form, Modal } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import type { ModuleDecl } from "../../shared/kit/module";
import { FormScreen, useModuleForm } from "./form-screen";
import { moduleText } from "./texts";
import { useModule } from "./use-module";

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
  submitText,
}: {
  module: ModuleDecl;
  /** Beside the form: fixed, or drawn from what is typed (whose account a number names). */
  aside?: ReactNode | ((values: Record<string, unknown>) => ReactNode);
  /** What the inputs start with (a new policy version starts from the one in force). */
  initialValues?: Record<string, unknown>;
  /**
   * Shown for confirmation before anything is sent (old → new, whom it reaches); nothing is sent
   * until OK, which says `okText` when given.
   */
  review?: (body: Record<string, unknown>) => Review;
  /** The submit button's word from what is typed, when it depends on it. */
  submitText?: (values: Record<string, unknown>) => string;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const [pending, setPending] = useState<Record<string, unknown>>();
  const form = useModuleForm(module, "create", { redirect: module.paths.show ? "show" : "list" });
  const values = Form.useWatch([], form.form) as Record<string, unknown> | undefined;
  // A refusal is shown on the form (its `refusal`); the rejected promise has nothing left to say.
  const send = (body: Record<string, unknown>) => form.onFinish(body).catch(() => undefined);

  return (
    <>
      <FormScreen
        module={module}
        kind="create"
        form={form}
        title={text("create.title")}
        back={module.paths.list}
        initialValues={initialValues}
        onBody={(body) => (review ? setPending(body) : void send(body))}
        aside={typeof aside === "function" ? aside(values ?? {}) : aside}
        submit={submitText?.(values ?? {})}
      />
      {pending && review && (
        <ReviewDialog
          title={text("create.reviewTitle")}
          cancelText={text("create.cancel")}
          review={{ okText: text("create.submit"), ...review(pending) }}
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

/** What a create screen shows for confirmation before it sends anything. */
export interface Review {
  content: ReactNode;
  /** Nothing would change: OK stays disabled. */
  unchanged?: boolean;
  okText?: string;
}

function ReviewDialog({
  title,
  cancelText,
  review,
  unchangedText,
  onOk,
  onCancel,
}: {
  title: string;
  cancelText: string;
  review: Review;
  unchangedText: string;
  onOk: () => Promise<void>;
  onCancel: () => void;
}) {
  return (
    <Modal
      open
      title={title}
      okText={review.okText}
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
