import { Alert, Form, Modal } from "antd";
import { useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { isPendingApproval } from "../../shared/kit/four-eyes";
import type { ModuleDecl } from "../../shared/kit/module";
import { FormScreen, useModuleForm } from "./form-screen";
import {
  amountOf,
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  needsApproval,
  reasonHeaders,
  ReasonInput,
  useFourEyesThreshold,
} from "./four-eyes";
import { recordPath } from "./links";
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
  const navigate = useNavigate();
  // Four eyes (FormDecl.fourEyes): the reason typed for the approver goes as a header.
  const fourEyes = module.create?.fourEyes;
  const reason = useRef<string>(undefined);
  const form = useModuleForm(
    module,
    "create",
    fourEyes
      ? {
          // A change sent for approval made no record: back to the list, not to its page.
          redirect: false,
          headers: () => reasonHeaders(reason.current),
          onMutationSuccess: ({ data }) => {
            const id = (data as { id?: unknown } | undefined)?.id;
            navigate(
              !isPendingApproval(data) && module.paths.show && id !== undefined
                ? recordPath(module, String(id))
                : module.paths.list,
            );
          },
        }
      : { redirect: module.paths.show ? "show" : "list" },
  );
  const values = Form.useWatch([], form.form) as Record<string, unknown> | undefined;
  const thresholdSen = useFourEyesThreshold(fourEyes);
  const amountSen = amountOf(fourEyes, values, undefined);
  const asksReason = needsApproval(fourEyes, amountSen, thresholdSen) === true;
  // A refusal is shown on the form (its `refusal`); the rejected promise has nothing left to say.
  const send = (body: Record<string, unknown>) => form.onFinish(body).catch(() => undefined);
  const onBody = (body: Record<string, unknown>, typed: Record<string, unknown>) => {
    const given = typed[CHANGE_REASON_FIELD];
    reason.current = asksReason && typeof given === "string" ? given : undefined;
    if (review) setPending(body);
    else void send(body);
  };

  return (
    <>
      <FormScreen
        module={module}
        kind="create"
        form={form}
        title={text("create.title")}
        back={module.paths.list}
        initialValues={initialValues}
        onBody={onBody}
        aside={typeof aside === "function" ? aside(values ?? {}) : aside}
        submit={submitText?.(values ?? {})}
        extra={
          fourEyes && (
            <>
              <FourEyesNotice decl={fourEyes} amountSen={amountSen} thresholdSen={thresholdSen} />
              {asksReason && <ReasonInput />}
            </>
          )
        }
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
