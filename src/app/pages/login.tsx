import { KeyOutlined } from "@ant-design/icons";
import { useLogin, useTranslate } from "@refinedev/core";
import { Alert, Button, Flex, Form, Input, Layout, Typography, theme } from "antd";
import { useState } from "react";

import { isProofStep, type LoginVariables } from "../../providers/auth";
import { wasSignedOutForInactivity } from "../../providers/idle";
import { passkeysSupported } from "../../providers/passkey";
import { useSecondFactor } from "../../providers/second-factor";
import { Brand } from "../layout/brand";
import { LanguageSwitcher } from "../layout/language-switcher";
import { SecondFactorStep } from "./second-factor-step";

interface Credentials {
  email: string;
  password: string;
}

/**
 * The sign-in page on Refine's `useLogin` (texts under `pages.login.*` in `common`). It draws what
 * Refine's AuthPage drew for it, without what this API has no use for (sign-up, password reset,
 * "remember me": sessions persist) and without the Card, Checkbox and Divider the AuthPage brings:
 * the login page is the first a visitor loads, and its JavaScript has a budget (bench/size.ts).
 * A refused login is explained by the central error handler (a toast, or the banned dialog).
 * An administrator with a second factor then proves it (a passkey, the app's code or a recovery
 * code) on a second step, whose refusals it says itself, as it does for a sign-in with a passkey
 * alone (offered where the browser can use one); a sign-in that took too long comes back to the
 * password with that reason. A lazy chunk of its own: the form engine it brings is not loaded by a
 * signed-in console.
 */
export default function LoginPage() {
  const translate = useTranslate();
  const { token } = theme.useToken();
  const { mutate: login, isPending, variables } = useLogin<LoginVariables>();
  const provingCode = isPending && variables !== undefined && "method" in variables;
  const provingPasskey = isPending && variables !== undefined && "passkey" in variables;
  const [withPasskey] = useState(passkeysSupported);
  const secondFactor = useSecondFactor();
  // Why the last code was refused; it stays on the password step when the sign-in expired.
  const [refusal, setRefusal] = useState<string>();
  const [inactive] = useState(wasSignedOutForInactivity);

  const signIn = (variables: LoginVariables) => {
    setRefusal(undefined);
    login(variables, {
      onSuccess: ({ success, error }) => {
        if (!success && isProofStep(variables)) setRefusal(error?.message);
      },
    });
  };

  return (
    <Layout>
      <Flex justify="center" align="center" style={{ minHeight: "100dvh", padding: "16px 4%" }}>
        <main style={{ width: "100%", maxWidth: 400 }}>
          <Flex justify="flex-end" style={{ marginBottom: 16 }}>
            <LanguageSwitcher />
          </Flex>
          <Flex justify="center" style={{ marginBottom: 32 }}>
            <h1 style={{ margin: 0, fontSize: 20 }}>
              <Brand />
            </h1>
          </Flex>
          <section
            aria-labelledby="login-title"
            style={{
              padding: 32,
              background: token.colorBgElevated,
              borderRadius: token.borderRadiusLG,
              boxShadow: token.boxShadowTertiary,
            }}
          >
            <Typography.Title
              id="login-title"
              level={2}
              style={{
                color: token.colorPrimaryTextHover,
                textAlign: "center",
                margin: "0 0 32px",
                fontSize: 24,
                lineHeight: "32px",
              }}
            >
              {secondFactor
                ? translate("session:secondFactor.title")
                : translate("pages.login.title", "Sign in to your account")}
            </Typography.Title>
            {secondFactor ? (
              <SecondFactorStep
                pending={secondFactor}
                error={refusal}
                busy={provingCode}
                onSubmit={signIn}
                onChange={() => setRefusal(undefined)}
              />
            ) : (
              <>
                {(refusal ?? inactive) && (
                  <Alert
                    role="alert"
                    type={refusal ? "error" : "info"}
                    showIcon
                    message={refusal ?? translate("session:idle.signedOut")}
                    style={{ marginBottom: 24 }}
                  />
                )}
                <Form<Credentials> layout="vertical" requiredMark={false} onFinish={signIn}>
                  <Form.Item
                    name="email"
                    label={translate("pages.login.fields.email", "Email")}
                    rules={[
                      {
                        required: true,
                        message: translate("pages.login.errors.requiredEmail", "Email is required"),
                      },
                      {
                        type: "email",
                        message: translate(
                          "pages.login.errors.validEmail",
                          "Invalid email address",
                        ),
                      },
                    ]}
                  >
                    <Input
                      size="large"
                      autoComplete="username"
                      placeholder={translate("pages.login.fields.email", "Email")}
                    />
                  </Form.Item>
                  <Form.Item
                    name="password"
                    label={translate("pages.login.fields.password", "Password")}
                    rules={[
                      {
                        required: true,
                        message: translate(
                          "pages.login.errors.requiredPassword",
                          "Password is required",
                        ),
                      },
                    ]}
                  >
                    <Input
                      type="password"
                      autoComplete="current-password"
                      placeholder="●●●●●●●●"
                      size="large"
                    />
                  </Form.Item>
                  <Form.Item style={{ marginBottom: 0, marginTop: 32 }}>
                    <Button
                      type="primary"
                      size="large"
                      htmlType="submit"
                      loading={isPending && !provingPasskey}
                      disabled={provingPasskey}
                      block
                    >
                      {translate("pages.login.signin", "Sign in")}
                    </Button>
                  </Form.Item>
                </Form>
                {withPasskey && (
                  <Button
                    size="large"
                    icon={<KeyOutlined aria-hidden />}
                    loading={provingPasskey}
                    disabled={isPending && !provingPasskey}
                    onClick={() => signIn({ passkey: true })}
                    block
                    style={{ marginTop: 16 }}
                  >
                    {translate("session:passkey.signIn")}
                  </Button>
                )}
              </>
            )}
          </section>
        </main>
      </Flex>
    </Layout>
  );
}
