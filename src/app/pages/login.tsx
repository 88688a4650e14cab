import { AuthPage } from "@refinedev/antd";
import { Flex } from "antd";
import { Brand } from "../layout/brand";
import { LanguageSwitcher } from "../layout/language-switcher";

/**
 * Refine's AuthPage against the login call (texts under `pages.login.*` in `common`). The API has
 * no sign-up or password reset and sessions persist, so those links and "remember me" are off.
 * A refused login is explained by the central error handler (a toast, or the banned dialog).
 * A lazy chunk of its own: the form engine it brings is not loaded by a signed-in console.
 */
export default function LoginPage() {
  return (
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
  );
}
