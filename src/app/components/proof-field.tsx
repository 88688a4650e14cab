import { useTranslate } from "@refinedev/core";
import { Alert, Button, Flex, Form, Input, Typography, type InputProps } from "antd";

import type { StepUpMethod } from "../../providers/api-types";
import { passkeysSupported } from "../../providers/passkey";

/** The field of a form named `code`. */
export interface ProofValues {
  code: string;
}

/** The proofs typed into the field; a passkey is the browser's ceremony instead. */
type TypedMethod = Exclude<StepUpMethod, "passkey">;

/** What the browser and a phone's keyboard should know about each kind of proof typed. */
const INPUT_PROPS: Record<TypedMethod, InputProps> = {
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

/** The other second factors to offer a switch to, the strongest first (the password has none). */
function otherMethods<M extends StepUpMethod>(method: M, methods: readonly M[]): M[] {
  if (method === "password") return [];
  return methods.filter((m) => m !== method && m !== "password");
}

/** The methods this browser can use: a passkey needs WebAuthn (the server names it regardless). */
export function usableMethods<M extends StepUpMethod>(methods: readonly M[]): M[] {
  const usable = methods.filter((m) => m !== "passkey" || passkeysSupported());
  return usable.length > 0 ? usable : [...methods];
}

/**
 * The first method to ask for (the server names one at least): a passkey when the administrator
 * has one and the browser can use it, else the app's code when there is one.
 */
export function firstMethod<M extends StepUpMethod>(methods: readonly M[]): M {
  const usable = usableMethods(methods);
  return usable.find((m) => m === "passkey") ?? usable.find((m) => m === "totp") ?? usable[0]!;
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
 * One proof of who the administrator is (texts in `session`): a passkey, the code from the
 * authenticator app, a recovery code or the password, with links to the other second factors.
 * Inside an antd Form whose field is `code` (none for a passkey: the form's submit button runs its
 * ceremony); the sign-in's second step and the step-up dialog both use it.
 */
export function ProofField<M extends StepUpMethod>({
  methods,
  method,
  onMethodChange,
  error,
}: ProofFieldProps<M>) {
  const translate = useTranslate();
  const form = Form.useFormInstance<ProofValues>();
  const others = otherMethods(method, usableMethods(methods));
  return (
    <>
      <Typography.Paragraph>{translate(`session:proof.${method}.intro`)}</Typography.Paragraph>
      {method === "passkey" ? (
        error && <Alert role="alert" type="error" showIcon message={error} />
      ) : (
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
          <Input key={method} size="large" autoFocus {...INPUT_PROPS[method as TypedMethod]} />
        </Form.Item>
      )}
      {others.length > 0 && (
        <Flex vertical align="flex-start" style={{ marginTop: method === "passkey" ? 12 : 0 }}>
          {others.map((other) => (
            <Button
              key={other}
              type="link"
              style={{ padding: 0 }}
              onClick={() => {
                form.setFieldValue("code", "");
                onMethodChange(other);
              }}
            >
              {translate(`session:proof.switchTo.${other}`)}
            </Button>
          ))}
        </Flex>
      )}
    </>
  );
}
