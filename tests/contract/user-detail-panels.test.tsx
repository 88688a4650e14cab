/**
 * The user detail panels as staff use them, rendered with Refine and the real data provider
 * against msw: what is sent, what is refused before sending, and what staff are told.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import type { ReactNode } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { UserDetail } from "../../src/providers/api-types";
import { setToken } from "../../src/providers/session";
import { ActionsPanel } from "../../src/resources/users/actions/actions-panel";
import { formatDateTime } from "../../src/app/format";
import { HistoryPanel } from "../../src/resources/users/actions/history-panel";
import { aToken } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { captureNotifications, renderInRefine } from "./support/render";

const { server, requests } = useApiServer();

// antd's dialogs and forms are slow to drive in jsdom.
vi.setConfig({ testTimeout: 20_000 });

const { shown, notifications } = captureNotifications();

async function useLanguage(lng: "en-US" | "cn-ZH") {
  await initPageTexts(["users", "errors", "common", "kit"], { language: lng });
}

function renderWithRefine(ui: ReactNode) {
  return renderInRefine(ui, notifications);
}

const aisyah = {
  id: 42,
  accountNumber: "A0000042",
  name: "Aisyah",
  email: "aisyah@ucsi.example",
  isBanned: false,
  isVip: false,
  url: null,
} as unknown as UserDetail;

beforeEach(async () => {
  setToken(aToken());
  await useLanguage("en-US");
});

// Ban, VIP and the URL are the users declaration's actions, drawn by the kit's buttons and
// dialogs (src/app/kit/decision.tsx): a button's accessible name names the user.
describe("ban", () => {
  it("requires a remark in the dialog, then sends it and reports the ban", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/ban`, () => HttpResponse.json({ id: 42 })));
    const changed = vi.fn();
    const user = renderWithRefine(<ActionsPanel user={aisyah} onChanged={changed} />);
    await user.click(screen.getByRole("button", { name: "Ban Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "Ban Aisyah?" });
    await user.click(within(dialog).getByRole("button", { name: "Ban" }));
    expect(
      await within(dialog).findByText("Enter a remark: the user is told why."),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Remark"), "Fraud");
    await user.click(within(dialog).getByRole("button", { name: "Ban" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(await requests[0]!.json()).toEqual({ ban: true, remark: "Fraud" });
    expect(shown).toContainEqual(expect.objectContaining({ message: "Aisyah is banned" }));
  });

  it("speaks Chinese", async () => {
    await useLanguage("cn-ZH");
    const user = renderWithRefine(<ActionsPanel user={aisyah} onChanged={() => undefined} />);
    await user.click(screen.getByRole("button", { name: "封禁 Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "封禁 Aisyah？" });
    // antd spaces out a two-character Chinese button label.
    await user.click(within(dialog).getByRole("button", { name: /^封\s?禁$/ }));
    expect(await within(dialog).findByText("请输入备注：用户会被告知原因。")).toBeInTheDocument();
  });

  it("unbans after confirmation, and explains 409 ALREADY_IN_STATE", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/42/ban`, () =>
        HttpResponse.json({ code: "ALREADY_IN_STATE", message: "not banned" }, { status: 409 }),
      ),
    );
    const changed = vi.fn();
    const user = renderWithRefine(
      <ActionsPanel user={{ ...aisyah, isBanned: true }} onChanged={changed} />,
    );
    await user.click(screen.getByRole("button", { name: "Unban Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "Lift the ban on Aisyah?" });
    await user.click(within(dialog).getByRole("button", { name: "Unban" }));
    expect(
      await within(dialog).findByText(
        "Aisyah: The user already has this status. The page now shows the current one.",
      ),
    ).toBeInTheDocument();
    expect(await requests[0]!.json()).toEqual({ ban: false });
    expect(changed).not.toHaveBeenCalled();
  });
});

describe("VIP", () => {
  it("asks first, then sends the user's new VIP status", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/vip`, () => HttpResponse.json({ id: 42 })));
    const changed = vi.fn();
    const user = renderWithRefine(<ActionsPanel user={aisyah} onChanged={changed} />);
    await user.click(screen.getByRole("button", { name: "Make VIP: Aisyah" }));
    expect(requests).toHaveLength(0);
    const dialog = await screen.findByRole("dialog", { name: "Make Aisyah a VIP?" });
    await user.click(within(dialog).getByRole("button", { name: "Make VIP" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(await requests[0]!.json()).toEqual({ isVip: true });
  });
});

describe("URL", () => {
  it("refuses javascript: without sending, saves https", async () => {
    server.use(mswHttp.patch(`${API}/api/users/42/url`, () => HttpResponse.json({ id: 42 })));
    const changed = vi.fn();
    const user = renderWithRefine(<ActionsPanel user={aisyah} onChanged={changed} />);
    await user.click(screen.getByRole("button", { name: "Save URL of Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "The URL of Aisyah" });
    const field = within(dialog).getByRole("textbox", { name: "URL" });
    await user.type(field, "javascript:alert(1)");
    await user.click(within(dialog).getByRole("button", { name: "Save URL" }));
    expect(
      await within(dialog).findByText("Enter a web address starting with http:// or https://."),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await user.clear(field);
    await user.type(field, "https://shop.example");
    await user.click(within(dialog).getByRole("button", { name: "Save URL" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(await requests[0]!.json()).toEqual({ url: "https://shop.example" });
  });
});

// The password reset is the users declaration's effect action: the kit's confirmation, then a
// link e-mailed (202 with its expiry); the user's record is not changed.
describe("reset password", () => {
  it("explains 409 NO_EMAIL in the staff member's language, in the dialog", async () => {
    await useLanguage("cn-ZH");
    server.use(
      mswHttp.post(`${API}/api/users/42/password-reset`, () =>
        HttpResponse.json({ code: "NO_EMAIL", message: "no e-mail" }, { status: 409 }),
      ),
    );
    const user = renderWithRefine(
      <ActionsPanel user={{ ...aisyah, email: null }} onChanged={() => undefined} />,
    );
    await user.click(screen.getByRole("button", { name: "重置密码：Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "重置 Aisyah 的密码？" });
    await user.click(within(dialog).getByRole("button", { name: "重置密码" }));
    expect(
      await screen.findByText(/该用户没有电子邮件地址，无法发送重置链接。/),
    ).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(shown).toEqual([]);
  });

  it("says a one-time link was e-mailed, and until when", async () => {
    server.use(
      mswHttp.post(`${API}/api/users/42/password-reset`, () =>
        HttpResponse.json(
          { status: "sent", expires_at: "2026-11-21T11:00:00.000Z" },
          { status: 202 },
        ),
      ),
    );
    const changed = vi.fn();
    const user = renderWithRefine(<ActionsPanel user={aisyah} onChanged={changed} />);
    await user.click(screen.getByRole("button", { name: "Reset password for Aisyah" }));
    const dialog = await screen.findByRole("dialog", { name: "Reset the password of Aisyah?" });
    expect(dialog).toHaveTextContent("Aisyah is e-mailed a one-time link");
    await user.click(within(dialog).getByRole("button", { name: "Reset password" }));
    await waitFor(() => expect(changed).toHaveBeenCalled());
    expect(requests[0]!.method).toBe("POST");
    expect(shown).toContainEqual(
      expect.objectContaining({
        type: "success",
        message: `A one-time reset link was e-mailed to aisyah@ucsi.example. It works until ${formatDateTime("2026-11-21T11:00:00.000Z")}.`,
      }),
    );
  });
});

describe("history", () => {
  const entry = (id: number, action: string, overrides: Record<string, unknown> = {}) => ({
    id,
    action,
    adminId: 3,
    adminName: "Desk Officer",
    remark: null,
    before: {},
    after: {},
    createdAt: "2026-11-20T08:00:00.000Z",
    ...overrides,
  });

  it("shows who, the translated action, the remark and what changed, paged", async () => {
    server.use(
      mswHttp.get(`${API}/api/users/42/audit`, ({ request }) => {
        const page = new URL(request.url).searchParams.get("page");
        return HttpResponse.json({
          totalCount: 12,
          entries:
            page === "1"
              ? [
                  entry(12, "user.ban", {
                    remark: "Fraud",
                    before: { isBanned: false, banRemark: null },
                    after: { isBanned: true, banRemark: "Fraud" },
                  }),
                  entry(11, "user.approve", { adminName: null }),
                ]
              : [
                  entry(2, "user.set_url", {
                    before: { url: null },
                    after: { url: "https://a.example" },
                  }),
                ],
        });
      }),
    );
    const user = renderWithRefine(<HistoryPanel userId={42} version={1} />);
    await screen.findByText("Desk Officer");
    const rows = screen.getAllByRole("row");
    expect(rows[1]).toHaveTextContent("Desk Officer");
    expect(rows[1]).toHaveTextContent("Banned");
    expect(rows[1]).toHaveTextContent("Fraud");
    expect(rows[1]).toHaveTextContent("Ban status: No → Yes");
    expect(rows[1]).toHaveTextContent("Ban remark: — → Fraud");
    expect(rows[2]).toHaveTextContent("Approved");
    expect(rows[2]).toHaveTextContent("System");
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({
      page: "1",
      pageSize: "10",
    });

    await user.click(screen.getByTitle("2"));
    expect(await screen.findByText("URL changed")).toBeVisible();
    expect(screen.getByText("URL changed").closest("tr")).toHaveTextContent(
      "URL: — → https://a.example",
    );
  });

  it("shows an instant no field describes (a reset link's expiry) as a date and time, labelled", async () => {
    server.use(
      mswHttp.get(`${API}/api/users/42/audit`, () =>
        HttpResponse.json({
          totalCount: 1,
          entries: [
            entry(5, "user.password_reset", {
              before: null,
              after: { email: "aina@ucsi.example", expiresAt: "2026-11-24T01:44:32.417Z" },
            }),
          ],
        }),
      ),
    );
    renderWithRefine(<HistoryPanel userId={42} version={1} />);
    const row = (await screen.findByText(/Link expires/)).closest("tr")!;
    expect(row).not.toHaveTextContent("2026-11-24T01:44");
    expect(row).toHaveTextContent(
      `Link expires: — → ${formatDateTime("2026-11-24T01:44:32.417Z")}`,
    );
  });

  it("says when there is nothing yet, and offers a retry when loading fails", async () => {
    server.use(
      mswHttp.get(`${API}/api/users/42/audit`, () =>
        HttpResponse.json({ code: "INTERNAL_ERROR", message: "boom" }, { status: 500 }),
      ),
    );
    renderWithRefine(<HistoryPanel userId={42} version={1} />);
    expect(await screen.findByText("The history could not be loaded")).toBeVisible();
    server.use(
      mswHttp.get(`${API}/api/users/42/audit`, () =>
        HttpResponse.json({ totalCount: 0, entries: [] }),
      ),
    );
    await userEvent.click(screen.getByRole("button", { name: /retry|try again/i }));
    expect(await screen.findByText("No staff actions on this user yet")).toBeVisible();
  });
});
