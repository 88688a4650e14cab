/**
 * Turning four eyes off, in the console against msw: the wallet policy's form offers the changes
 * that need a second approver by their names in the staff member's language, the review shows the
 * list old → new as a change, and the new version is sent with the maker's reason (it waits for a
 * second approver itself); the policy in force says when none is off.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { walletPolicy } from "../../src/resources/wallet-policy";
import ChangePolicy from "../../src/resources/wallet-policy/change";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { aPolicy } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "walletPolicy"]);
});

describe("the wallet policy's four eyes switch", () => {
  it("offers the declared changes by name and sends the list with the maker's reason", async () => {
    server.use(
      mswHttp.get(`${API}/api/wallet-policy`, () => HttpResponse.json(aPolicy())),
      mswHttp.post(`${API}/api/wallet-policies`, () =>
        HttpResponse.json(
          {
            status: "pending_approval",
            changeRequest: {
              id: 9,
              reference: "CR20261128POLICY0009",
              status: "pending",
              reason: "given",
              amountSen: null,
              expiresAt: "2026-11-29T08:00:00.000Z",
            },
          },
          { status: 202 },
        ),
      ),
    );
    renderPage("/wallet-policy/create", [walletPolicy.resource], {
      "/wallet-policy/create": <ChangePolicy />,
      "/wallet-policy": <p>The policy list</p>,
    });
    const select = await screen.findByLabelText("Four eyes off for");
    expect(
      screen.getByText(/Each change chosen here is applied at once, without a second approver/),
    ).toBeInTheDocument();
    await userEvent.click(select);
    for (const label of [
      "Counter top-ups above the threshold",
      "Reversals",
      "Settlements marked paid",
      "Refunds of user reports above the threshold",
      "Administrator permission changes",
      "Global settings",
    ]) {
      expect(await screen.findByTitle(label)).toBeInTheDocument();
    }
    await userEvent.click(screen.getByTitle("Global settings"));
    await userEvent.keyboard("{Escape}");
    await userEvent.type(screen.getByLabelText("Reason for the approver"), "Settings desk is two");
    await userEvent.click(screen.getByRole("button", { name: "Save the new policy" }));

    const review = await screen.findByRole("dialog");
    const row = within(review).getByText("Four eyes off for").closest("tr")!;
    expect(
      within(row).getByText("None: every change waits for a second approver"),
    ).toBeInTheDocument();
    expect(within(row).getByText("Global settings")).toBeInTheDocument();
    expect(within(row).getAllByText("Changed").length).toBeGreaterThan(0);
    await userEvent.click(within(review).getByRole("button", { name: "Save the new policy" }));

    await vi.waitFor(() => expect(requests.some((r) => r.method === "POST")).toBe(true));
    const post = requests.find((r) => r.method === "POST")!;
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBe(encodeURIComponent("Settings desk is two"));
    expect(await post.json()).toMatchObject({ fourEyesOff: ["global-settings.update"] });
    expect(
      await screen.findByText(
        "Sent for approval as CR20261128POLICY0009: another administrator must approve it.",
      ),
    ).toBeInTheDocument();
  });
});
