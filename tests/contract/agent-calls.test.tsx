/**
 * The top-up agent's part of the user detail page as staff use it: the users declaration's agent
 * actions (change the type, change the commission) drawn by the kit's buttons and dialogs,
 * rendered with Refine and the real data provider against msw. What crosses the wire, what the
 * browser refuses before sending, and the server's refusal in the staff member's words.
 */
import { screen, waitFor, within } from "@testing-library/react";
import type userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { UserDetail } from "../../src/providers/api-types";
import { setToken } from "../../src/providers/session";
import { AgentSection } from "../../src/resources/users/agent/agent-section";
import { aToken } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { captureNotifications, renderInRefine } from "./support/render";

const { server, requests } = useApiServer();

// antd's dialogs and forms are slow to drive in jsdom.
vi.setConfig({ testTimeout: 20_000 });

const { shown, notifications } = captureNotifications();

async function useLanguage(lng: "en-US" | "cn-ZH") {
  await initPageTexts(["users", "riders", "errors", "common", "kit"], { language: lng });
}

const budi = {
  id: 7,
  accountNumber: "A0000007",
  name: "Budi",
  email: "budi@ucsi.example",
  role: "agent",
  isBanned: false,
  isVip: false,
  url: null,
  agent: { agentType: "campus", commissionRateBp: 1000 },
} as unknown as UserDetail;

function renderSection(agent: UserDetail = budi) {
  return renderInRefine(<AgentSection user={agent} />, notifications);
}

/** The calls that changed something (the section reads nothing itself). */
const changes = () => requests.filter((request) => request.method !== "GET");

beforeEach(async () => {
  setToken(aToken());
  await useLanguage("en-US");
});

describe("agent type", () => {
  it("opens with the current type chosen, and sends the new one with PATCH agent-type", async () => {
    server.use(mswHttp.patch(`${API}/api/users/7/agent-type`, () => HttpResponse.json({ id: 7 })));
    const user = renderSection();
    await user.click(screen.getByRole("button", { name: "Change type: Budi" }));
    const dialog = await screen.findByRole("dialog", { name: "The agent type of Budi" });
    const type = within(dialog).getByRole("combobox", { name: "Agent type" });
    expect(within(dialog).getByTitle("Campus agent")).toBeInTheDocument();
    expect(changes()).toHaveLength(0);

    await user.click(type);
    await user.click(await screen.findByTitle("Merchant agent"));
    await user.click(within(dialog).getByRole("button", { name: "Change type" }));
    await waitFor(() =>
      expect(shown).toContainEqual(
        expect.objectContaining({
          type: "success",
          message: "The agent type of Budi is saved",
        }),
      ),
    );
    expect(changes()).toHaveLength(1);
    expect(changes()[0]!.method).toBe("PATCH");
    expect(new URL(changes()[0]!.url).pathname).toBe("/v1/api/users/7/agent-type");
    expect(await changes()[0]!.json()).toEqual({ agentType: "merchant" });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("speaks Chinese", async () => {
    await useLanguage("cn-ZH");
    const user = renderSection();
    await user.click(screen.getByRole("button", { name: "更改类型：Budi" }));
    expect(await screen.findByRole("dialog", { name: "Budi 的代理类型" })).toBeInTheDocument();
  });
});

describe("agent commission", () => {
  /** Opens the commission dialog and types `typed` over the current rate. */
  async function typeRate(user: ReturnType<typeof userEvent.setup>, typed: string) {
    await user.click(screen.getByRole("button", { name: "Change commission: Budi" }));
    const dialog = await screen.findByRole("dialog", { name: "The commission rate of Budi" });
    const rate = within(dialog).getByRole("spinbutton", { name: "Commission rate" });
    await user.clear(rate);
    if (typed) await user.type(rate, typed);
    return {
      dialog,
      rate,
      save: within(dialog).getByRole("button", { name: "Change commission" }),
    };
  }

  it("opens with the current rate as a percentage, and sends 12.5 % as 1250 basis points", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/7/agent-commission`, () => HttpResponse.json({ id: 7 })),
    );
    const user = renderSection();
    expect(screen.getByTestId("agent-commission")).toHaveTextContent("10.00%");
    await user.click(screen.getByRole("button", { name: "Change commission: Budi" }));
    const dialog = await screen.findByRole("dialog", { name: "The commission rate of Budi" });
    expect(within(dialog).getByRole("spinbutton", { name: "Commission rate" })).toHaveValue(
      "10.00",
    );
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    const { save } = await typeRate(user, "12.5");
    await user.click(save);
    await waitFor(() =>
      expect(shown).toContainEqual(
        expect.objectContaining({
          type: "success",
          message: "The commission rate of Budi is saved",
        }),
      ),
    );
    expect(changes()).toHaveLength(1);
    expect(changes()[0]!.method).toBe("PATCH");
    expect(new URL(changes()[0]!.url).pathname).toBe("/v1/api/users/7/agent-commission");
    expect(await changes()[0]!.json()).toEqual({ commissionRateBp: 1250 });
  });

  it.each([
    ["101", "Commission rate must be at most 100.00%."],
    ["100.01", "Commission rate must be at most 100.00%."],
    ["", "Commission rate is required."],
  ])("refuses %j in the dialog before any request", async (typed, message) => {
    const user = renderSection();
    const { dialog, save } = await typeRate(user, typed);
    await user.click(save);
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(changes()).toHaveLength(0);
    expect(shown).toHaveLength(0);
    expect(screen.getByRole("dialog", { name: "The commission rate of Budi" })).toBeInTheDocument();
  });

  it("refuses an out-of-range rate in Chinese", async () => {
    await useLanguage("cn-ZH");
    const user = renderSection();
    await user.click(screen.getByRole("button", { name: "更改佣金：Budi" }));
    const dialog = await screen.findByRole("dialog", { name: "Budi 的佣金比例" });
    const rate = within(dialog).getByRole("spinbutton", { name: "佣金比例" });
    await user.clear(rate);
    await user.type(rate, "101");
    await user.click(within(dialog).getByRole("button", { name: "更改佣金" }));
    expect(await within(dialog).findByText("佣金比例不能超过 100.00%。")).toBeInTheDocument();
    expect(changes()).toHaveLength(0);
  });

  it("keeps two decimals: 1.234 % is held, shown and sent as 1.23 % (123 basis points)", async () => {
    // The kit's percentage input has a precision of two decimals: a third one is rounded away
    // when the input is left, so no value with three decimals can be sent.
    server.use(
      mswHttp.patch(`${API}/api/users/7/agent-commission`, () => HttpResponse.json({ id: 7 })),
    );
    const user = renderSection();
    const { rate, save } = await typeRate(user, "1.234");
    await user.click(save);
    await waitFor(() => expect(changes()).toHaveLength(1));
    expect(rate).toHaveValue("1.23");
    expect(await changes()[0]!.json()).toEqual({ commissionRateBp: 123 });
  });

  // The percentage input once clamped a typed -1 to 0 and saved 0 %: it is refused instead.
  it("refuses a negative rate before any request", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/7/agent-commission`, () => HttpResponse.json({ id: 7 })),
    );
    const user = renderSection();
    const { dialog, save } = await typeRate(user, "-1");
    await user.click(save);
    expect(
      await within(dialog).findByText("Commission rate must be at least 0.00%."),
    ).toBeInTheDocument();
    expect(changes()).toHaveLength(0);
  });

  it("shows the server's 400 refusal translated, and keeps the dialog open", async () => {
    server.use(
      mswHttp.patch(`${API}/api/users/7/agent-commission`, () =>
        HttpResponse.json(
          { code: "VALIDATION_ERROR", message: "commissionRateBp: Too big" },
          { status: 400 },
        ),
      ),
    );
    const user = renderSection();
    const { save } = await typeRate(user, "12.5");
    await user.click(save);
    const dialog = await screen.findByRole("dialog", { name: "The commission rate of Budi" });
    expect(
      await within(dialog).findByText(
        "Budi: Some of the information is not valid. Please check it and try again.",
      ),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/commissionRateBp/)).not.toBeInTheDocument();
    expect(shown).toHaveLength(0);
  });
});
