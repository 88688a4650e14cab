import { useTranslate } from "@refinedev/core";
import { Button, Flex, Form } from "antd";
import { useState } from "react";

import type { PendingSecondFactor } from "../../providers/second-factor";
import { setSecondFactor } from "../../providers/second-factor";
import type { SecondFactorProof } from "../../providers/auth";
import { firstMethod, ProofField, type ProofValues } from "../components/proof-field";

interface SecondFactorStepProps {
  pending: PendingSecondFactor;
  /** Why the last proof was refused. */
  error?: string;
  onSubmit: (proof: SecondFactorProof) => void;
  /** Typing again hides the last refusal. */
  onChange: () => void;
  busy: boolean;
}

/**
 * The sign-in's second step: a passkey first when the administrator has one, else the code from
 * the authenticator app, or a recovery code.
 */
export function SecondFactorStep({
  pending,
  error,
  onSubmit,
  onChange,
  busy,
}: SecondFactorStepProps) {
  const translate = useTranslate();
  const [method, setMethod] = useState(() => firstMethod(pending.methods));
  return (
    <Form<ProofValues>
      layout="vertical"
      requiredMark={false}
      onValuesChange={onChange}
      onFinish={({ code }) => onSubmit(method === "passkey" ? { method } : { method, code })}
    >
      <ProofField
        methods={pending.methods}
        method={method}
        onMethodChange={(next) => {
          setMethod(next);
          onChange();
        }}
        error={error}
      />
      <Form.Item style={{ marginBottom: 0, marginTop: 32 }}>
        <Button type="primary" size="large" htmlType="submit" loading={busy} block>
          {method === "passkey"
            ? translate("session:proof.passkey.use")
            : translate("session:secondFactor.verify")}
        </Button>
      </Form.Item>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Button type="link" onClick={() => setSecondFactor(null)}>
          {translate("session:secondFactor.back")}
        </Button>
      </Flex>
    </Form>
  );
}
