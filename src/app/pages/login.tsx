import { keys, useNotification } from "@refinedev/core";
import { useMutationState } from "@tanstack/react-query";
import { Flex, Layout, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isLoginError, type LoginError } from "../../providers/auth";
import { Panel } from "../components/panel";
import { Brand } from "../layout/brand";
import { LanguageSwitcher } from "../layout/language-switcher";
import { LoginForm } from "./login-form";

const LOGIN_MUTATION_KEY = keys().auth().action("login").get();

interface LoginAttempt {
  submittedAt: number;
  error: unknown;
}

/**
 * The latest refused login of a banned account, read from React Query's record of Refine's login
 * mutation, so the dialog needs no wiring through the form.
 */
function useBannedLogin(): { attempt: LoginAttempt; error: LoginError } | undefined {
  const attempts = useMutationState<LoginAttempt>({
    filters: { mutationKey: LOGIN_MUTATION_KEY, status: "success" },
    select: (mutation) => ({
      submittedAt: mutation.state.submittedAt,
      error: (mutation.state.data as { error?: unknown } | undefined)?.error,
    }),
  });
  const latest = attempts.at(-1);
  if (!latest || !isLoginError(latest.error) || latest.error.bannedEmail === undefined) {
    return undefined;
  }
  return { attempt: latest, error: latest.error };
}

export function LoginPage() {
  const { t } = useTranslation("auth");
  const { close } = useNotification();
  const banned = useBannedLogin();
  const [dismissedAt, setDismissedAt] = useState(0);
  const showBanned = banned !== undefined && banned.attempt.submittedAt > dismissedAt;

  // The dialog says everything the login toast would; keep one message on screen.
  useEffect(() => {
    if (showBanned) close?.("login-error");
  }, [showBanned, close]);

  return (
    <Layout style={{ minHeight: "100dvh" }}>
      <Flex component="header" justify="flex-end" style={{ padding: "12px 16px" }}>
        <LanguageSwitcher />
      </Flex>
      <Flex component="main" vertical align="center" style={{ padding: "24px 16px 64px" }}>
        <h1 style={{ margin: "0 0 24px", fontSize: 20 }}>
          <Brand />
        </h1>
        <Panel style={{ width: "100%", maxWidth: 400 }}>
          <h2 style={{ fontSize: 22, textAlign: "center", marginTop: 0, marginBottom: 24 }}>
            {t("login.title")}
          </h2>
          <LoginForm />
        </Panel>
      </Flex>
      <Modal
        open={showBanned}
        title={banned?.error.name}
        okText={t("common:ok")}
        onOk={() => setDismissedAt(banned?.attempt.submittedAt ?? Date.now())}
        onCancel={() => setDismissedAt(banned?.attempt.submittedAt ?? Date.now())}
        cancelButtonProps={{ style: { display: "none" } }}
        centered
      >
        <p>{banned?.error.message}</p>
      </Modal>
    </Layout>
  );
}
