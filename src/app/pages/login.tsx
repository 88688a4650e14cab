import { keys, useNotification } from "@refinedev/core";
import { AuthPage } from "@refinedev/antd";
import { useMutationState } from "@tanstack/react-query";
import { Flex, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isLoginError, type LoginError } from "../../providers/auth";
import { Brand } from "../layout/brand";
import { LanguageSwitcher } from "../layout/language-switcher";

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

/**
 * Refine's AuthPage against the login call (texts under `pages.login.*` in `common`). The API has
 * no sign-up or password reset and sessions persist, so those links and "remember me" are off.
 * A lazy chunk of its own: the form engine it brings is not loaded by a signed-in console.
 */
export default function LoginPage() {
  const { t } = useTranslation("common");
  const { close } = useNotification();
  const banned = useBannedLogin();
  const [dismissedAt, setDismissedAt] = useState(0);
  const showBanned = banned !== undefined && banned.attempt.submittedAt > dismissedAt;

  // The dialog says everything the login toast would; keep one message on screen.
  useEffect(() => {
    if (showBanned) close?.("login-error");
  }, [showBanned, close]);

  return (
    <>
      <AuthPage
        type="login"
        title={
          <h1 style={{ margin: 0, fontSize: 20 }}>
            <Brand />
          </h1>
        }
        rememberMe={false}
        forgotPasswordLink={false}
        registerLink={false}
        renderContent={(content, title) => (
          <main>
            <Flex justify="flex-end" style={{ marginBottom: 16 }}>
              <LanguageSwitcher />
            </Flex>
            {title}
            {content}
          </main>
        )}
      />
      <Modal
        open={showBanned}
        title={banned?.error.name}
        okText={t("ok")}
        onOk={() => setDismissedAt(banned?.attempt.submittedAt ?? Date.now())}
        onCancel={() => setDismissedAt(banned?.attempt.submittedAt ?? Date.now())}
        cancelButtonProps={{ style: { display: "none" } }}
        centered
      >
        <p>{banned?.error.message}</p>
      </Modal>
    </>
  );
}
