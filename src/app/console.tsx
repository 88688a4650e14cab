import { Refine } from "@refinedev/core";
import { Suspense } from "react";
import routerProvider, { UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider } from "antd";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { createAccessControlProvider } from "../providers/access-control";
import { authProvider } from "../providers/auth";
import { dataProvider } from "../providers/data";
import { i18nProvider, initI18n, useAntdLocale } from "../providers/i18n";
import { queryClientConfig } from "../providers/query-client";
import { resourceModules, resources } from "../resources";
import { DocumentTitle } from "./document-title";
import { ErrorHandlingBridge } from "./error-handling-bridge";
import { useConsoleNotificationProvider } from "./notification-provider";
import { ConsoleLayout } from "./layout/console-layout";
import { PageLoading } from "./components/page-loading";
import { DashboardPage, LoginPage, NotFoundPage, SettingPage } from "./pages";
import { resourceRoutes } from "./resource-routes";
import { RedirectIntoConsole, RedirectToLogin, SessionGate } from "./session-gate";
import { brandTheme } from "./theme";

/** Resolves when the active language's texts are in, so the first paint is already translated. */
export const consoleReady: Promise<void> = initI18n();

// Checks that name a resource without passing it still find its permission code.
const accessControlProvider = createAccessControlProvider({
  permissionCodeOf: (name) =>
    resourceModules.find((module) => module.resource.name === name)?.resource.meta.permissionCode,
});

export default function Console() {
  const antdLocale = useAntdLocale();

  return (
    <ConfigProvider
      theme={brandTheme}
      locale={antdLocale}
      // antd would render two-character Chinese labels as "确 定".
      button={{ autoInsertSpace: false }}
    >
      <AntdApp>
        <BrowserRouter>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            authProvider={authProvider}
            accessControlProvider={accessControlProvider}
            i18nProvider={i18nProvider}
            notificationProvider={useConsoleNotificationProvider}
            resources={resources}
            options={{
              disableTelemetry: true,
              warnWhenUnsavedChanges: true,
              reactQuery: { clientConfig: queryClientConfig },
            }}
          >
            <ErrorHandlingBridge />
            <DocumentTitle />
            <UnsavedChangesNotifier />
            <Routes>
              <Route path="/" element={<Navigate to="/dashboard" replace />} />
              <Route
                path="/login"
                element={
                  <SessionGate
                    signedIn={<RedirectIntoConsole />}
                    signedOut={
                      <Suspense fallback={<PageLoading />}>
                        <LoginPage />
                      </Suspense>
                    }
                  />
                }
              />
              <Route
                element={
                  <SessionGate signedIn={<ConsoleLayout />} signedOut={<RedirectToLogin />} />
                }
              >
                <Route path="/dashboard" element={<DashboardPage />} />
                <Route path="/setting" element={<SettingPage />} />
                {resourceRoutes(resourceModules)}
                <Route path="*" element={<NotFoundPage />} />
              </Route>
            </Routes>
          </Refine>
        </BrowserRouter>
      </AntdApp>
    </ConfigProvider>
  );
}
