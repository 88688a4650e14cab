/**
 * App Notification screens, drawn by the kit from the declaration, against msw: the create form
 * (both languages, the roles chosen from a list, "send now" when no time is given, an empty
 * title refused before anything is sent, a past time refused by the server in the staff
 * member's words), the list's roles in words, and the detail page: a sent notification's count
 * and recipients, cancelling a scheduled one, and a refusal to cancel a sent one explained.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import GeneratedList from "../../src/app/kit/generated-list";
import GeneratedShow from "../../src/app/kit/generated-show";
import { resourceOf } from "../../src/app/kit/resource";
import AppNotificationCreate from "../../src/resources/app-notifications/create";
import {
  appNotifications,
  type AppNotificationDto,
} from "../../src/shared/modules/app-notifications";
import { initPageTexts } from "./support/i18n";
import { API, jsonParam, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "appNotification", "appNotificationRecipients"]);
});

function aNotification(overrides: Partial<AppNotificationDto> = {}): AppNotificationDto {
  return {
    id: 5,
    titleEn: "Library closes early",
    titleZh: "图书馆提早关闭",
    bodyEn: "The library closes at 6 pm on Friday.",
    bodyZh: "周五图书馆下午六点关闭。",
    audience: ["student", "staff"],
    status: "sent",
    sendAt: "2026-11-20T02:00:00.000Z",
    recipientCount: 1234,
    sentAt: "2026-11-20T02:00:03.000Z",
    createdBy: 1,
    createdByName: "Super Administrator",
    remark: null,
    reviewerId: null,
    reviewerName: null,
    reviewedAt: null,
    createdAt: "2026-11-19T02:00:00.000Z",
    ...overrides,
  };
}

function renderAt(path: string) {
  return renderPage(path, [resourceOf(appNotifications).resource], {
    "/app-notification": <GeneratedList />,
    "/app-notification/create": <AppNotificationCreate />,
    "/app-notification/:id": <GeneratedShow />,
  });
}

const RECIPIENTS = `${API}/api/app-notifications/5/recipients`;
const serveRecord = (record: AppNotificationDto) =>
  server.use(
    mswHttp.get(`${API}/api/app-notifications/5`, () => HttpResponse.json(record)),
    mswHttp.get(`${API}/api/app-notifications/5/audit`, () =>
      HttpResponse.json({ total: 0, entries: [] }),
    ),
    mswHttp.get(RECIPIENTS, () =>
      HttpResponse.json({
        totalCount: 1234,
        recipients: [
          {
            id: 1,
            userId: 42,
            accountNumber: "W000000042",
            userName: "Nur Aina",
            role: "student",
            deliveredAt: "2026-11-20T02:00:03.000Z",
            readAt: null,
          },
        ],
      }),
    ),
  );

async function fillForm() {
  await userEvent.type(await screen.findByLabelText("Title (English)"), "Library closes early");
  await userEvent.type(screen.getByLabelText("Title (Chinese)"), "图书馆提早关闭");
  await userEvent.type(screen.getByLabelText("Message (English)"), "Closes at 6 pm.");
  await userEvent.type(screen.getByLabelText("Message (Chinese)"), "下午六点关闭。");
  await userEvent.click(screen.getByLabelText("Audience"));
  await userEvent.click(await screen.findByTitle("Students"));
  await userEvent.click(await screen.findByTitle("Staff"));
}

const posts = () =>
  requests.filter(
    (request) => request.method === "POST" && !request.url.endsWith("/audience-count"),
  );

/** The roles' active users now, as the confirmation counts them. */
const serveAudience = (count: number) =>
  server.use(
    mswHttp.post(`${API}/api/app-notifications/audience-count`, () => HttpResponse.json({ count })),
  );

/** Confirms the dialog that names the recipients, with its button `ok`. */
async function confirm(ok: string, count: RegExp) {
  const dialog = await screen.findByRole("dialog", { name: "Send this notification?" });
  expect(await within(dialog).findByRole("status")).toHaveTextContent(count);
  await userEvent.click(within(dialog).getByRole("button", { name: ok }));
}

describe("the create form", () => {
  it("sends both languages and the chosen roles, with no time: send now, once confirmed with the number of recipients", async () => {
    serveAudience(1234);
    server.use(
      mswHttp.post(`${API}/api/app-notifications`, () =>
        HttpResponse.json(aNotification({ status: "scheduled" }), { status: 201 }),
      ),
    );
    serveRecord(aNotification({ status: "scheduled" }));
    renderAt("/app-notification/create");
    expect(await screen.findByText("Leave empty to send at once.")).toBeInTheDocument();
    await fillForm();
    await userEvent.click(screen.getByRole("button", { name: "Send now" }));
    const dialog = await screen.findByRole("dialog", { name: "Send this notification?" });
    expect(dialog).toHaveTextContent(
      "“Library closes early” goes now to every active user among: Students, Staff.",
    );
    expect(posts()).toEqual([]);
    await confirm("Send now", /^1,234 users will receive it\.$/);
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    expect(await posts()[0]!.json()).toEqual({
      titleEn: "Library closes early",
      titleZh: "图书馆提早关闭",
      bodyEn: "Closes at 6 pm.",
      bodyZh: "下午六点关闭。",
      audience: ["student", "staff"],
    });
  });

  it("refuses an empty title before sending anything", async () => {
    renderAt("/app-notification/create");
    await fillForm();
    await userEvent.clear(screen.getByLabelText("Title (English)"));
    await userEvent.click(screen.getByRole("button", { name: "Send now" }));
    expect(await screen.findByText("Title (English) is required.")).toBeInTheDocument();
    expect(posts()).toEqual([]);
  });

  it("explains a send time the server finds past, in the staff member's words", async () => {
    server.use(
      mswHttp.post(`${API}/api/app-notifications`, () =>
        HttpResponse.json(
          { code: "SCHEDULE_IN_PAST", message: "The send time is in the past" },
          { status: 400 },
        ),
      ),
    );
    serveAudience(2);
    renderAt("/app-notification/create");
    await fillForm();
    await userEvent.click(screen.getByRole("button", { name: "Send now" }));
    await confirm("Send now", /^2 users will receive it\.$/);
    expect(
      await screen.findByText(
        "The send time has passed. Choose a later time, or leave it empty to send at once.",
      ),
    ).toBeInTheDocument();
  });
});

describe("the list", () => {
  it("asks for the newest first and names the roles in words", async () => {
    server.use(
      mswHttp.get(`${API}/api/app-notifications/aggregation`, () =>
        HttpResponse.json({ totalCount: 1, appNotifications: [aNotification()] }),
      ),
    );
    renderAt("/app-notification");
    const link = await screen.findByRole("link", { name: "Library closes early" });
    const row = within(link.closest("tr")!);
    expect(row.getByText("Students, Staff")).toBeInTheDocument();
    expect(row.getByText("Sent")).toBeInTheDocument();
    expect(row.getByText("1,234")).toBeInTheDocument();
    const request = requests.find((candidate) => candidate.url.includes("/aggregation"));
    expect(jsonParam(request, "sort")).toEqual({ createdAt: -1 });
  });
});

describe("the detail page", () => {
  it("shows a sent notification's recipient count and its recipients, with no cancel", async () => {
    serveRecord(aNotification());
    renderAt("/app-notification/5");
    expect(await screen.findByText("1,234")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: "W000000042" })).toBeInTheDocument();
    expect(screen.getByText("Not read yet")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Cancel sending/ })).toBeNull();
  });

  it("cancels a scheduled notification with the reason", async () => {
    serveRecord(aNotification({ status: "scheduled", recipientCount: 0, sentAt: null }));
    server.use(
      mswHttp.post(`${API}/api/app-notifications/5/cancel`, () =>
        HttpResponse.json(aNotification({ status: "cancelled", recipientCount: 0, sentAt: null })),
      ),
    );
    renderAt("/app-notification/5");
    await userEvent.click(await screen.findByRole("button", { name: /^Cancel sending/ }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox"), "Sent by mistake");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel sending" }));
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    expect(await posts()[0]!.json()).toEqual({ remark: "Sent by mistake" });
    expect(
      await screen.findByText('Notification "Library closes early" was cancelled.'),
    ).toBeInTheDocument();
  });

  it("explains that a notification sent meanwhile can no longer be cancelled", async () => {
    serveRecord(aNotification({ status: "scheduled", recipientCount: 0, sentAt: null }));
    server.use(
      mswHttp.post(`${API}/api/app-notifications/5/cancel`, () =>
        HttpResponse.json(
          {
            code: "NOTIFICATION_NOT_CANCELLABLE",
            message: "This app notification is sent, not scheduled",
            data: { status: "sent" },
          },
          { status: 409 },
        ),
      ),
    );
    renderAt("/app-notification/5");
    await userEvent.click(await screen.findByRole("button", { name: /^Cancel sending/ }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByRole("textbox"), "Too late");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel sending" }));
    expect(
      await screen.findByText(
        "This notification is Sent: only a scheduled notification can be cancelled.",
        { exact: false },
      ),
    ).toBeInTheDocument();
  });
});
