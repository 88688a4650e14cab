/**
 * One failure, one message: Refine opens its own error toast for every failed hook, and the
 * central handler shows the catalogue's; the console must show exactly one. Played with real
 * Refine hooks over the real data provider and http client, msw answering.
 */
import { Refine, useList, useOne, useUpdate } from "@refinedev/core";
import routerProvider from "@refinedev/react-router";
import { App as AntdApp, Button } from "antd";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { codedErrorNotification } from "../../src/app/components/notifications";
import { ErrorHandlingBridge } from "../../src/app/error-handling-bridge";
import { useConsoleNotificationProvider } from "../../src/app/notification-provider";
import { authProvider } from "../../src/providers/auth";
import { dataProvider } from "../../src/providers/data";
import { queryClientConfig } from "../../src/providers/query-client";
import { initErrorTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";

const { server, requests } = useApiServer();

beforeAll(() => initErrorTexts("en-US"));

const LIST_FAILED =
  "Something went wrong while retriving data, please contact our technical support";

/** The console's query settings, retries kept but not waited for. */
const quickConfig = {
  ...queryClientConfig,
  defaultOptions: {
    ...queryClientConfig.defaultOptions,
    queries: { ...queryClientConfig.defaultOptions?.queries, retryDelay: 1 },
  },
};

function Console({ children }: { children: ReactNode }) {
  return (
    <AntdApp>
      <MemoryRouter>
        <Refine
          dataProvider={dataProvider}
          authProvider={authProvider}
          routerProvider={routerProvider}
          notificationProvider={useConsoleNotificationProvider}
          options={{ disableTelemetry: true, reactQuery: { clientConfig: quickConfig } }}
        >
          <ErrorHandlingBridge />
          {children}
        </Refine>
      </MemoryRouter>
    </AntdApp>
  );
}

/** Reads the way views do, with Refine's default error notification left on. */
function Reader({ resource, id }: { resource: string; id?: number }) {
  const list = useList({ resource, queryOptions: { enabled: id === undefined } });
  const one = useOne({ resource, id: id ?? 0, queryOptions: { enabled: id !== undefined } });
  const failed = id === undefined ? list.query.isError : one.query.isError;
  return <p>{failed ? `${resource} failed` : `${resource} loading`}</p>;
}

function notices(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(".ant-notification-notice")];
}

describe("one message per failure", () => {
  it("shows the list-failure toast once when several reads fail together", async () => {
    const fault = () =>
      HttpResponse.json({ code: "INTERNAL_ERROR", message: "boom" }, { status: 500 });
    server.use(
      mswHttp.get(`${API}/api/administrators/aggregation`, fault),
      mswHttp.get(`${API}/api/users/aggregation`, fault),
      mswHttp.get(`${API}/api/users/3`, fault),
    );
    render(
      <Console>
        <Reader resource="administrators" />
        <Reader resource="users" />
        <Reader resource="users" id={3} />
      </Console>,
    );
    await screen.findByText("administrators failed");
    await vi.waitFor(() => expect(screen.getAllByText("users failed")).toHaveLength(2));
    // Each read was tried four times (three retries for a 5xx) before it failed.
    expect(requests).toHaveLength(12);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(notices()).toHaveLength(1);
    expect(screen.getByText(LIST_FAILED)).toBeInTheDocument();
  });

  it("leaves a record that does not exist to its page: no toast for a 404 read", async () => {
    server.use(
      mswHttp.get(`${API}/api/users/999999`, () =>
        HttpResponse.json({ code: "NOT_FOUND", message: "User not found" }, { status: 404 }),
      ),
    );
    render(
      <Console>
        <Reader resource="users" id={999999} />
      </Console>,
    );
    await screen.findByText("users failed");
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(notices()).toHaveLength(0);
  });

  it("does not add Refine's toast to the handler's for a failed change", async () => {
    server.use(
      mswHttp.patch(`${API}/api/administrators/7`, () =>
        HttpResponse.json({ message: "Settlement already paid" }, { status: 409 }),
      ),
    );
    render(
      <Console>
        <Changer />
      </Console>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Settlement already paid")).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(notices()).toHaveLength(1);
  });

  it("lets a form explain its own coded error, once", async () => {
    server.use(
      mswHttp.patch(`${API}/api/administrators/7`, () =>
        HttpResponse.json({ code: "EMAIL_TAKEN", message: "taken" }, { status: 409 }),
      ),
    );
    render(
      <Console>
        <Changer explainsCodes />
      </Console>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("This e-mail address is already in use.")).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(notices()).toHaveLength(1);
    expect(screen.getByText("Could not save")).toBeInTheDocument();
  });
});

function Changer({ explainsCodes = false }: { explainsCodes?: boolean }) {
  const { mutate } = useUpdate();
  return (
    <Button
      onClick={() =>
        mutate({
          resource: "administrators",
          id: 7,
          values: { email: "taken@ucsi.example" },
          ...(explainsCodes && { errorNotification: codedErrorNotification(t, "Could not save") }),
        })
      }
    >
      Save
    </Button>
  );
}
