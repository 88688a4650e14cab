/**
 * Reconciliation screens against msw: the list of reconciled days (green and red tags, the
 * closing float), a red day's page (each check, its figures, the rows that differ linked to their
 * pages), "Run again" (the day sent, the result said, a refusal in the console's words), and
 * "Mark investigated", which waits for a second approver.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { actionUrl } from "../../src/app/kit/decision";
import GeneratedList from "../../src/app/kit/generated-list";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { reconciliation as reconciliationResource } from "../../src/resources/reconciliation";
import ReconciliationShow from "../../src/resources/reconciliation/show";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { reconciliation, type ReconciliationDayDto } from "../../src/shared/modules/reconciliation";
import { anAdmin } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "menu", "changeRequests", "reconciliation"]);
});

beforeEach(() => {
  setCurrentAdmin(anAdmin({ id: 7, permissions: [0, 35] }));
});

const passedChecks = (): ReconciliationDayDto["checks"] => [
  {
    name: "walletBalances",
    passed: true,
    figures: { wallets: 120, rows: 310, rowsChained: 4_200, brokenLinks: 0, balanceMismatches: 0 },
    differenceCount: 0,
    differences: [],
  },
  {
    name: "float",
    passed: true,
    figures: {
      previousCloseSen: 1_000_000,
      previousCloseFrom: "reconciliation",
      topUpsSen: 50_000,
      paymentsSen: 20_000,
      refundsSen: 0,
      reversalsSen: 0,
      adjustmentsSen: 0,
      expectedCloseSen: 1_030_000,
      closingFloatSen: 1_030_000,
      differenceSen: 0,
    },
    differenceCount: 0,
    differences: [],
  },
  {
    name: "topUps",
    passed: true,
    figures: { "card.success": 3, "card.successSen": 50_000 },
    differenceCount: 0,
    differences: [],
  },
  {
    name: "settlements",
    passed: true,
    figures: { settlements: 0 },
    differenceCount: 0,
    differences: [],
  },
  {
    name: "settlementItems",
    passed: true,
    figures: { settlements: 0, items: 0, inTwoSettlements: 0 },
    differenceCount: 0,
    differences: [],
  },
];

const GREEN: ReconciliationDayDto = {
  id: 1,
  day: "2026-11-26",
  status: "passed",
  failedChecks: 0,
  closingFloatSen: 1_030_000,
  checks: passedChecks(),
  ranBy: null,
  ranByName: null,
  ranAt: "2026-11-26T17:00:00.000Z",
  investigatedBy: null,
  investigatedByName: null,
  investigatedAt: null,
  investigationRemark: null,
};

const RED: ReconciliationDayDto = {
  ...GREEN,
  id: 2,
  day: "2026-11-25",
  status: "failed",
  failedChecks: 1,
  checks: passedChecks().map((check) =>
    check.name === "topUps"
      ? {
          ...check,
          passed: false,
          differenceCount: 2,
          differences: [
            {
              kind: "channel",
              channel: "counter",
              expectedSen: 15_000,
              actualSen: 10_000,
              differenceSen: -5_000,
              expectedCount: 3,
              actualCount: 2,
            },
            {
              kind: "status",
              transactionId: 8812,
              userId: 44,
              accountNumber: "A000044",
              type: "top_up",
              status: "failed",
              channel: "counter",
              amountSen: 5_000,
              expectedSen: 0,
              actualSen: 5_000,
              differenceSen: 5_000,
            },
          ],
        }
      : check,
  ),
};

describe("the list of reconciled days", () => {
  it("tags green and red days and shows their closing float", async () => {
    server.use(
      mswHttp.get(`${API}/api/reconciliation/aggregation`, () =>
        HttpResponse.json({ totalCount: 2, totalCountExact: true, reconciliation: [GREEN, RED] }),
      ),
    );
    renderPage("/reconciliation", [reconciliationResource.resource], {
      "/reconciliation": <GeneratedList />,
    });
    const green = (await screen.findByText("Passed")).closest("tr")!;
    expect(within(green).getByText("RM 10,300.00")).toBeInTheDocument();
    const red = screen.getByText("Red: to investigate").closest("tr")!;
    expect(within(red).getByRole("link", { name: /2026/ })).toHaveAttribute(
      "href",
      "/reconciliation-day/2",
    );
  });
});

describe("a red day's page", () => {
  beforeEach(() => {
    server.use(
      mswHttp.get(`${API}/api/reconciliation/2`, () => HttpResponse.json(RED)),
      mswHttp.get(`${API}/api/reconciliation/2/audit`, () =>
        HttpResponse.json({ totalCount: 0, entries: [] }),
      ),
      mswHttp.get(`${API}/api/change-requests/aggregation`, () =>
        HttpResponse.json({ totalCount: 0, changeRequests: [] }),
      ),
    );
    renderPage("/reconciliation-day/2", [reconciliationResource.resource], {
      "/reconciliation-day/:id": <ReconciliationShow />,
    });
  });

  it("shows each check, the failed one's differences, and links the ledger row and the wallet", async () => {
    const card = (await screen.findByText("Top-ups by channel")).closest(
      ".ant-card",
    ) as HTMLElement;
    expect(within(card).getByText("Failed")).toBeInTheDocument();
    expect(
      within(card).getByText("Top-up status unlike its effect on the balance"),
    ).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Ledger row 8812" })).toHaveAttribute(
      "href",
      "/wallet-transaction/8812",
    );
    expect(within(card).getByRole("link", { name: "A000044" })).toHaveAttribute(
      "href",
      "/user-details/44",
    );
    expect(within(card).getAllByText("-RM 50.00").length).toBeGreaterThan(0);
    expect(screen.getByText("Wallet balances and their ledgers")).toBeInTheDocument();
  });

  it("runs the day again and says its result; a refusal is worded", async () => {
    let answer: "ok" | "refuse" = "refuse";
    server.use(
      mswHttp.post(`${API}/api/reconciliation/run`, () =>
        answer === "refuse"
          ? HttpResponse.json(
              {
                code: "RECONCILIATION_DAY_NOT_OVER",
                message: "not over",
                data: { today: "2026-11-25" },
              },
              { status: 400 },
            )
          : HttpResponse.json({ ...RED, status: "investigated" }),
      ),
    );
    await userEvent.click(await screen.findByRole("button", { name: "Run again" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByRole("button", { name: "Run again" }));
    expect(
      await within(dialog).findByText(
        "A business day can be reconciled once it is over (today is 2026-11-25).",
      ),
    ).toBeInTheDocument();
    const post = requests.find((r) => r.method === "POST" && r.url.endsWith("/run"))!;
    expect(await post.clone().json()).toEqual({ day: "2026-11-25" });
    answer = "ok";
    await userEvent.click(within(dialog).getByRole("button", { name: "Run again" }));
    expect(
      await screen.findByText("2026-11-25 was reconciled again: Red: investigated."),
    ).toBeInTheDocument();
  });

  it("marks the day investigated with a remark, which waits for a second approver", async () => {
    const url = `${API}${actionUrl(reconciliation, reconciliation.actions.investigate!, RED.id)}`;
    server.use(
      mswHttp.post(url, () =>
        HttpResponse.json(
          {
            status: "pending_approval",
            changeRequest: {
              id: 9,
              reference: "CR20261127A00000011",
              status: "pending",
              reason: "given",
              amountSen: null,
              expiresAt: "2026-11-28T02:00:00.000Z",
            },
          },
          { status: 202 },
        ),
      ),
    );
    await userEvent.click(
      await screen.findByRole("button", { name: "Mark investigated: 2026-11-25" }),
    );
    const dialog = await screen.findByRole("dialog");
    expect(
      within(dialog).getByText("This change waits for a second approver before it is applied."),
    ).toBeInTheDocument();
    await userEvent.type(
      within(dialog).getByRole("textbox", { name: /remark|Remark/ }),
      "Till sent one top-up twice",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Mark investigated" }));
    await vi.waitFor(() => expect(requests.some((r) => r.url === url)).toBe(true));
    const post = requests.find((r) => r.url === url)!;
    // The remark is the reason the approver reads (no header of its own).
    expect(post.headers.get(CHANGE_REASON_HEADER)).toBeNull();
    expect(await post.clone().json()).toEqual({ remark: "Till sent one top-up twice" });
    expect(
      await screen.findByText(
        "Sent for approval as CR20261127A00000011: another administrator must approve it.",
      ),
    ).toBeInTheDocument();
  });
});
