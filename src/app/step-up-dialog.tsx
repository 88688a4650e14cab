import { useTranslate } from "@refinedev/core";
import { Form, Modal } from "antd";
import { useEffect, useState } from "react";

import type { StepUpMethod } from "../providers/api-types";
import { toApiError } from "../providers/errors";
import { http } from "../providers/http";
import { describePasskeyFailure, stepUpWithPasskey } from "../providers/passkey";
import { setStepUpPrompt, STEP_UP_API_PATH, stepUpMethodsOf } from "../providers/step-up";
import { firstMethod, ProofField, type ProofValues } from "./components/proof-field";

interface Question {
  methods: StepUpMethod[];
  answer: (proven: boolean) => void;
}

/**
 * The step-up dialog (docs/api.md), mounted once in the signed-in console: whichever page's
 * request the server refused with STEP_UP_REQUIRED, the administrator proves who they are here and
 * the request goes again (src/providers/step-up.ts): with a passkey (its button runs the ceremony)
 * or a typed code. A refused proof or a cancelled passkey prompt is said in the dialog, which
 * stays; Cancel hands the refusal back to the page that asked.
 */
export function StepUpDialog() {
  const [question, setQuestion] = useState<Question>();
  useEffect(
    () =>
      setStepUpPrompt(
        (methods) => new Promise<boolean>((answer) => setQuestion({ methods, answer })),
      ),
    [],
  );
  if (!question) return null;
  const close = (proven: boolean) => {
    question.answer(proven);
    setQuestion(undefined);
  };
  return <StepUpQuestion methods={question.methods} onClose={close} />;
}

function StepUpQuestion({
  methods: asked,
  onClose,
}: {
  methods: StepUpMethod[];
  onClose: (proven: boolean) => void;
}) {
  const translate = useTranslate();
  const [form] = Form.useForm<ProofValues>();
  const [methods, setMethods] = useState(asked);
  const [method, setMethod] = useState(() => firstMethod(asked));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const prove = async ({ code }: ProofValues) => {
    setBusy(true);
    try {
      if (method === "passkey") await stepUpWithPasskey();
      else await http.post(STEP_UP_API_PATH, { method, code });
      onClose(true);
    } catch (failure) {
      const refusal = toApiError(failure);
      // A password from an administrator who has a second factor: ask for that instead.
      if (refusal.code === "STEP_UP_METHOD") {
        const named = stepUpMethodsOf(refusal.data);
        setMethods(named);
        setMethod(firstMethod(named));
        form.setFieldValue("code", "");
      }
      setError(describePasskeyFailure(failure, translate));
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={translate("session:stepUp.title")}
      okText={
        method === "passkey"
          ? translate("session:proof.passkey.use")
          : translate("session:stepUp.confirm")
      }
      cancelText={translate("session:stepUp.cancel")}
      okButtonProps={{ loading: busy }}
      maskClosable={false}
      // The dialog takes the focus as it opens: hand it to the field, for typing the code at once.
      afterOpenChange={(open) => {
        if (open) (form.getFieldInstance("code") as HTMLInputElement | null)?.focus();
      }}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Form<ProofValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={prove}
        onValuesChange={() => setError(undefined)}
      >
        <ProofField
          methods={methods}
          method={method}
          onMethodChange={(next) => {
            setMethod(next);
            setError(undefined);
          }}
          error={error}
        />
      </Form>
    </Modal>
  );
}
