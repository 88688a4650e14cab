import { Refine, type ResourceProps } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { render } from "@testing-library/react";
import { App as AntdApp } from "antd";
import type { ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";

import { ErrorHandlingBridge } from "../../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../../src/app/notification-provider";
import { dataProvider } from "../../../src/providers/data";

/**
 * A console page as the console mounts it (antd's App, Refine with the real data provider and
 * notifications, the central error handling), at `path`, with `routes` (path → page).
 */
export function renderPage(
  path: string,
  resources: ResourceProps[],
  routes: Record<string, ReactElement>,
) {
  return render(
    <AntdApp>
      <MemoryRouter initialEntries={[path]}>
        <Refine
          dataProvider={dataProvider}
          routerProvider={routerProvider}
          notificationProvider={useConsoleNotificationProvider}
          resources={resources}
          options={{
            disableTelemetry: true,
            reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
          }}
        >
          <ErrorHandlingBridge />
          <Routes>
            {Object.entries(routes).map(([route, element]) => (
              <Route key={route} path={route} element={element} />
            ))}
          </Routes>
        </Refine>
      </MemoryRouter>
    </AntdApp>,
  );
}
