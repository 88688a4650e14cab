import { Refine } from "@refinedev/core";
import { Suspense, lazy, useEffect } from "react";
import routerProvider, { UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider } from "antd";
import { BrowserRouter, Navigate, Route, Routes, useLocation } from "react-router";
import { createAccessControlProvider } from "../providers/access-control";
import { authProvider } from "../providers/auth";
import { dataProvider } from "../providers/data";
import { liveConnection, liveProvider, ownChangesCache } from "../providers/live";
import { i18nProvider, initI18n, loadConsoleTexts, useAntdLocale } from "../providers/i18n";
import { AccountSync } from "./account-sync";
import { CONSOLE_NOTIFICATIONS, consoleComponentConfig, useReducedMotion } from "./console-config";
import { queryClientConfig } from "../providers/query-client";
import { useCurrentAdmin } from "../providers/current-admin";
import { getToken } from "../providers/session";
import { DocumentTitle } from "./document-title";
import { ErrorHandlingBridge } from "./error-handling-bridge";
import { useConsoleNotificationProvider } from "./notification-provider";
import { PageLoading } from "./components/page-loading";
import { declaredResourceModules, useDeclaredResources } from "./declared-resources";
import { ModuleTexts } from "./module-texts";
import { LoginPage, ResetPasswordPage } from "./pages";
import { shellPageId } from "../shared/shell-pages";
import {
  CHECKING_SESSION,
  RedirectIntoConsole,
  RedirectToLogin,
  SessionGate,
} from "./session-gate";

// The console's live pieces (presence, the dashboard) use the one stream, and its own changes
// are not news to it (docs/live-updates.md).
liveConnection.enable();
const mutationCache = ownChangesCache();

/** Resolves when the active language's texts are in, so the first paint is already translated. */
export const consoleReady: Promise<void> = initI18n();

// Checks that name a resource without passing it still find its permission code.
const accessControlProvider = createAccessControlProvider({
  permissionCodeOf: (name) =>
    declaredResourceModules().find((module) => module.resource.name === name)?.resource.meta
      .permissionCode,
});

// The signed-in console (layout, modules, their declarations and zod, their words) is a chunk of
// its own, so the login page does without it. With a stored session it is fetched right away,
// alongside the session check rather than after it.
const importSignedInConsole = () =>
  Promise.all([import("./signed-in-console"), loadConsoleTexts()]).then(([module]) => module);
let signedInConsole: ReturnType<typeof importSignedInConsole> | undefined;
const loadSignedInConsole = () => (signedInConsole ??= importSignedInConsole());
// A failure is reported when the console renders it (LoadFailure), not here.
if (getToken()) loadSignedInConsole().catch(() => undefined);
const SignedInConsole = lazy(loadSignedInConsole);

/** The public pages an e-mailed password reset link opens: a wallet user's and an administrator's. */
const RESET_PAGES = [
  { path: "/reset-password", audience: "wallet", title: "pages.resetPassword.title" },
  { path: "/login/reset-password", audience: "staff", title: "pages.resetPassword.staff.title" },
] as const;

/**
 * Every path but the login and reset pages, behind the session: the signed-in console, or the
 * login page first. `/` is the dashboard, unless its `?id=` names a shell page, which opens there
 * as on any path (one route for both, so leaving it for another page keeps the frame mounted).
 */
function BehindSession() {
  const { pathname, search } = useLocation();
  if (pathname === "/" && shellPageId(search) === undefined) {
    return <Navigate to="/dashboard" replace />;
  }
  return (
    <SessionGate
      signedIn={
        <Suspense fallback={CHECKING_SESSION}>
          <SignedInConsole />
        </Suspense>
      }
      signedOut={<RedirectToLogin />}
    />
  );
}

export default function Console() {
  const antdLocale = useAntdLocale();
  const resources = useDeclaredResources();
  // The signed-in administrator's choice (Setting), kept on the server: light when signed out.
  const theme = useCurrentAdmin()?.theme;
  const reducedMotion = useReducedMotion();
  // The page's own colour scheme follows (scroll bars, form controls the browser draws).
  useEffect(() => {
    const scheme = theme === "dark" ? "dark" : "light";
    document.documentElement.dataset.theme = scheme;
    document.documentElement.style.colorScheme = scheme;
  }, [theme]);

  return (
    <ConfigProvider {...consoleComponentConfig(antdLocale, theme, reducedMotion)}>
      <AntdApp notification={CONSOLE_NOTIFICATIONS}>
        <BrowserRouter>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            liveProvider={liveProvider}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            i18nProvider={i18nProvider}
            notificationProvider={useConsoleNotificationProvider}
            resources={resources}
            options={{
              disableTelemetry: true,
              warnWhenUnsavedChanges: true,
              reactQuery: { clientConfig: { ...queryClientConfig, mutationCache } },
            }}
          >
            <ErrorHandlingBridge />
            <AccountSync />
            <UnsavedChangesNotifier />
            <Routes>
              <Route
                path="/login"
                element={
                  <SessionGate
                    signedIn={<RedirectIntoConsole />}
                    signedOut={
                      <>
                        <DocumentTitle page="pages.login.signin" />
                        <Suspense fallback={<PageLoading />}>
                          <LoginPage />
                        </Suspense>
                      </>
                    }
                  />
                }
              />
              {RESET_PAGES.map(({ path, audience, title }) => (
                <Route
                  key={path}
                  path={path}
                  element={
                    <>
                      <DocumentTitle page={title} />
                      <Suspense fallback={<PageLoading />}>
                        {/* The password rules' words are the Admin module's. */}
                        <ModuleTexts>
                          <ResetPasswordPage audience={audience} />
                        </ModuleTexts>
                      </Suspense>
                    </>
                  }
                />
              ))}
              <Route path="*" element={<BehindSession />} />
            </Routes>
          </Refine>
        </BrowserRouter>
      </AntdApp>
    </ConfigProvider>
  );
}
