import { useTranslate } from "@refinedev/core";
import { Button, Form, Input, Typography, type InputProps } from "antd";

import type { StepUpMethod } from "../../providers/api-types";

/** The field of a form named `code`. */
export interface ProofValues {
  code: string;
}

/** What the browser and a phone's keyboard should know about each kind of proof. */
const INPUT_PROPS: Record<StepUpMethod, InputProps> = {
  totp: {
    inputMode: "numeric",
    autoComplete: "one-time-code",
    pattern: "[0-9 ]*",
    maxLength: 7,
    placeholder: "123456",
  },
  "recovery-code": {
    autoComplete: "off",
    autoCapitalize: "characters",
    spellCheck: false,
    maxLength: 24,
    placeholder: "XXXX-XXXX-XXXX-XXXX",
  },
  password: { type: "password", autoComplete: "current-password", placeholder: "●●●●●●●●" },
};

/** The other second factor to offer a switch to, when the administrator has it. */
function otherMethod<M extends StepUpMethod>(method: M, methods: readonly M[]): M | undefined {
  const other = method === "totp" ? "recovery-code" : method === "recovery-code" ? "totp" : null;
  return methods.find((m) => m === other);
}

/** The first method to ask for: the app's code when there is one (the server names one at least). */
export function firstMethod<M extends StepUpMethod>(methods: readonly M[]): M {
  return methods.find((m) => m === "totp") ?? methods[0]!;
}

interface ProofFieldProps<M extends StepUpMethod> {
  /** The methods the server accepts. */
  methods: readonly M[];
  method: M;
  onMethodChange: (method: M) => void;
  /** Why the last proof was refused, shown under the field. */
  error?: string;
}

/**
 * One proof of who the administrator is (texts in `session`): the code from the authenticator
 * app, a recovery code or the password, with a link to the other second factor. Inside an antd
 * Form whose field is `code`; the sign-in's code step and the step-up dialog both use it.
 */
export function ProofField<M extends StepUpMethod>({
  methods,
  method,
  onMethodChange,
  error,
}: ProofFieldProps<M>) {
  const translate = useTranslate();
  const form = Form.useFormInstance<ProofValues>();
  const other = otherMethod(method, methods);
  return (
    <>
      <Typography.Paragraph>{translate(`session:proof.${method}.intro`)}</Typography.Paragraph>
      <Form.Item
        name="code"
        label={translate(`session:proof.${method}.label`)}
        validateStatus={error ? "error" : undefined}
        help={error}
        rules={[
          {
            required: true,
            whitespace: true,
            message: translate(`session:proof.${method}.required`),
          },
        ]}
      >
        {/* Keyed by method: switching starts an empty field with the cursor in it. */}
        <Input key={method} size="large" autoFocus {...INPUT_PROPS[method]} />
      </Form.Item>
      {other && (
        <Button
          type="link"
          style={{ padding: 0 }}
          onClick={() => {
            form.setFieldValue("code", "");
            onMethodChange(other);
          }}
        >
          {translate(`session:proof.switchTo.${other}`)}
        </Button>
      )}
    </>
  );
}
