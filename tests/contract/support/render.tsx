import {
  Refine,
  type NotificationProvider,
  type OpenNotificationParams,
  type ResourceProps,
} from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntdApp } from "antd";
import type { ReactElement, ReactNode } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { beforeEach } from "vitest";

import { CONSOLE_NOTIFICATIONS } from "../../../src/app/console-config";
import { ErrorHandlingBridge } from "../../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../../src/app/notification-provider";
import { dataProvider } from "../../../src/providers/data";

/** Refine's options in tests: no telemetry, and a failed query fails at once instead of retrying. */
const REFINE_OPTIONS = {
  disableTelemetry: true,
  reactQuery: { clientConfig: { defaultOptions: { queries: { retry: false } } } },
};

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
    <AntdApp notification={CONSOLE_NOTIFICATIONS}>
      <MemoryRouter initialEntries={[path]}>
        <Refine
          dataProvider={dataProvider}
          routerProvider={routerProvider}
          notificationProvider={useConsoleNotificationProvider}
          resources={resources}
          options={REFINE_OPTIONS}
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

/** A notification provider that shows nothing. */
export const silentNotifications: NotificationProvider = {
  open: () => undefined,
  close: () => undefined,
};

/**
 * A notification provider that keeps every notification it is asked to open in `shown`, so tests
 * assert on what staff were told; `shown` is emptied before each test (of the enclosing describe
 * block, when called inside one).
 */
export function captureNotifications() {
  const shown: OpenNotificationParams[] = [];
  const notifications: NotificationProvider = {
    open: (params) => void shown.push(params),
    close: () => undefined,
  };
  beforeEach(() => {
    shown.length = 0;
  });
  return { shown, notifications };
}

/**
 * One component (no router, no page) inside Refine with the real data provider and
 * `notifications` (silent unless given); answers a user-event driver set up for it.
 */
export function renderInRefine(
  ui: ReactNode,
  notifications: NotificationProvider = silentNotifications,
) {
  const user = userEvent.setup();
  render(
    <Refine
      dataProvider={dataProvider}
      notificationProvider={notifications}
      options={REFINE_OPTIONS}
    >
      {ui}
    </Refine>,
  );
  return user;
}
