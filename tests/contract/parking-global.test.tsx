/**
 * UCSI Parking, Global and the theme setting against msw: the lots page without a maps key says
 * the map is not configured and lists the lots (no maps request, no error); Global shows every
 * changed setting old → new before it sends only those, and refuses a bad version or e-mail in
 * the console's words without sending anything; the theme choice is saved for the administrator.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import i18next from "i18next";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { z } from "zod";

import GlobalPage from "../../src/app/global/global-page";
import GeneratedEdit from "../../src/app/kit/generated-edit";
import { issueText } from "../../src/app/kit/form";
import { ThemeCard } from "../../src/app/setting/theme-card";
import { getCurrentAdmin, setCurrentAdmin } from "../../src/providers/current-admin";
import { parking } from "../../src/resources/parking";
import ParkingLotsPage from "../../src/resources/parking/lots-page";
import type { GlobalSettingsAnswer } from "../../src/shared/global-settings";
import { parkingLots, type ParkingLotDto } from "../../src/shared/modules/parking";
import { anAdmin } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 15_000 });
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "parking", "global", "setting", "admin"]);
});

const LOT: ParkingLotDto = {
  id: 1,
  name: "North Wing basement",
  code: "NW-B1",
  latitude: 3.0806,
  longitude: 101.7331,
  capacity: 320,
  occupied: 41,
  hourlyRateSen: 100,
  dailyCapSen: 500,
  status: "open",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

describe("the parking lots page without a maps key", () => {
  it("says the map is not configured and lists the lots with their occupancy", async () => {
    server.use(
      mswHttp.get(`${API}/api/parking-lots/aggregation`, () =>
        HttpResponse.json({ parkingLots: [LOT], total: 1 }),
      ),
    );
    renderPage("/parking", [parking.resource], { "/parking": <ParkingLotsPage /> });
    expect(await screen.findByText(/The map is not configured/)).toBeInTheDocument();
    const row = (await screen.findByText("North Wing basement")).closest("tr")!;
    expect(within(row).getByText("41")).toBeInTheDocument();
    expect(within(row).getByText("RM 1.00")).toBeInTheDocument();
    expect(screen.queryByRole("alert", { name: /error/i })).toBeNull();
    expect(
      requests.every((request) => new URL(request.url).origin === window.location.origin),
    ).toBe(true);
  });
});

const SETTINGS: GlobalSettingsAnswer = {
  supportEmail: "help@ucsi.example",
  maintenanceEnabled: false,
  maintenanceMessageEn: "",
  maintenanceMessageZh: "",
  minIosVersion: "1.0.0",
  minAndroidVersion: "1.0.0",
  defaultFeeRateBp: 150,
  secondFactorRequired: "nobody",
  secondFactorCodes: [],
  supportEmailFallback: "superadmin@wallet.example",
};

function renderGlobal() {
  server.use(
    mswHttp.get(`${API}/api/global-settings`, () => HttpResponse.json(SETTINGS)),
    // Every change waits for a second approver: 202 and the change request.
    mswHttp.patch(`${API}/api/global-settings`, () =>
      HttpResponse.json(
        {
          status: "pending_approval",
          changeRequest: {
            id: 7,
            reference: "CR20261128ABCDEF1234",
            status: "pending",
            reason: "Given",
            amountSen: null,
            expiresAt: "2026-11-29T08:00:00.000Z",
          },
        },
        { status: 202 },
      ),
    ),
  );
  return renderPage("/global", [], { "/global": <GlobalPage /> });
}

const patches = () => requests.filter((request) => request.method === "PATCH");

describe("a lot's edit form", () => {
  it("shows and sends its coordinates with every decimal (they were once rounded to whole degrees)", async () => {
    const lot = { ...LOT, latitude: 3.0797123, longitude: 101.7331456 };
    server.use(
      mswHttp.get(`${API}/api/parking-lots/1`, () => HttpResponse.json(lot)),
      mswHttp.patch(`${API}/api/parking-lots/1`, () => HttpResponse.json(lot)),
    );
    renderPage("/parking-lot/1/edit", [parking.resource], {
      "/parking-lot/:id/edit": <GeneratedEdit />,
    });
    expect(await screen.findByLabelText("Latitude")).toHaveValue("3.0797123");
    expect(screen.getByLabelText("Longitude")).toHaveValue("101.7331456");
    const save = screen.getByRole("button", { name: "Save the lot" });
    await vi.waitFor(() => expect(save).toBeEnabled());
    await userEvent.click(save);
    await vi.waitFor(() =>
      expect(requests.filter((request) => request.method === "PATCH")).toHaveLength(1),
    );
    const sent = requests.find((request) => request.method === "PATCH")!;
    expect(await sent.json()).toMatchObject({ latitude: 3.0797123, longitude: 101.7331456 });
  });

  it("refuses more than 7 decimal places in the staff member's words", () => {
    const form = parkingLots.edit!;
    const latitude = (form.body.shape as Record<string, z.ZodType>).latitude!;
    expect(latitude.safeParse(3.0797123).success).toBe(true);
    const issue = latitude.safeParse(3.12345678).error!.issues[0]!;
    expect(issueText(i18next.t, parkingLots, form, "latitude", issue)).toBe(
      "Latitude takes at most 7 decimal places (about a centimetre).",
    );
  });
});

describe("a choice left empty", () => {
  it("asks to choose one, in both languages, rather than calling it invalid", async () => {
    const form = parkingLots.create!;
    const status = (form.body.shape as Record<string, z.ZodType>).status!;
    const issue = status.safeParse("").error!.issues[0]!;
    expect(issueText(i18next.t, parkingLots, form, "status", issue)).toBe("Status: choose one.");
    await initPageTexts(["kit", "parking"], { language: "cn-ZH" });
    expect(issueText(i18next.t, parkingLots, form, "status", issue)).toBe("请选择状态。");
    await initPageTexts(["common", "errors", "kit", "parking", "global", "setting", "admin"]);
  });
});

describe("Global", () => {
  it("shows each changed setting old → new, then sends only those", async () => {
    renderGlobal();
    const email = await screen.findByLabelText("Support e-mail");
    await userEvent.clear(email);
    await userEvent.type(email, "desk@ucsi.example");
    const ios = screen.getByLabelText("Minimum iOS app version");
    await userEvent.clear(ios);
    await userEvent.type(ios, "2.4.0");
    await userEvent.click(screen.getByRole("button", { name: "Review changes" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("help@ucsi.example")).toBeInTheDocument();
    expect(within(dialog).getByText("desk@ucsi.example")).toBeInTheDocument();
    expect(within(dialog).getByText("1.0.0")).toBeInTheDocument();
    expect(within(dialog).getByText("2.4.0")).toBeInTheDocument();
    expect(patches()).toHaveLength(0);
    // Every change waits for a second approver, who reads the maker's reason.
    expect(within(dialog).getByRole("status")).toHaveTextContent(
      "This change waits for a second approver before it is applied.",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Send for approval" }));
    expect(
      await within(dialog).findByText("Please give the approver a reason."),
    ).toBeInTheDocument();
    expect(patches()).toHaveLength(0);
    await userEvent.type(
      within(dialog).getByLabelText("Reason for the approver"),
      "Desk moved; iOS 2.4 fixes the top-up crash",
    );
    await userEvent.click(within(dialog).getByRole("button", { name: "Send for approval" }));
    await vi.waitFor(() => expect(patches()).toHaveLength(1));
    expect(await patches()[0]!.json()).toEqual({
      supportEmail: "desk@ucsi.example",
      minIosVersion: "2.4.0",
    });
    expect(patches()[0]!.headers.get("x-change-reason")).toBe(
      encodeURIComponent("Desk moved; iOS 2.4 fixes the top-up crash"),
    );
    expect(
      await screen.findByText(
        "Sent for approval as CR20261128ABCDEF1234: another administrator must approve it.",
      ),
    ).toBeInTheDocument();
    // Nothing changed yet: the form still shows the settings as they are.
    expect(screen.getByLabelText("Support e-mail")).toHaveValue("desk@ucsi.example");
  });

  it("requires a second factor of chosen codes' holders, the codes named in the review", async () => {
    renderGlobal();
    await userEvent.click(await screen.findByRole("radio", { name: "Holders of chosen codes" }));
    const codes = await screen.findByRole("group", {
      name: "Administrators holding any of these codes",
    });
    await userEvent.click(within(codes).getByRole("checkbox", { name: /Top Up/ }));
    await userEvent.click(within(codes).getByRole("checkbox", { name: /Settlement/ }));
    await userEvent.click(screen.getByRole("button", { name: "Review changes" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("Nobody")).toBeInTheDocument();
    expect(within(dialog).getByText("Holders of chosen codes")).toBeInTheDocument();
    expect(within(dialog).getByText("Top Up, Settlement")).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText("Reason for the approver"), "RMiT audit");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send for approval" }));
    await vi.waitFor(() => expect(patches()).toHaveLength(1));
    expect(await patches()[0]!.json()).toEqual({
      secondFactorRequired: "codes",
      secondFactorCodes: [33, 35],
    });
  });

  it("refuses a bad version, a bad e-mail and maintenance without its messages, sending nothing", async () => {
    renderGlobal();
    const email = await screen.findByLabelText("Support e-mail");
    await userEvent.clear(email);
    await userEvent.type(email, "not-an-email");
    const android = screen.getByLabelText("Minimum Android app version");
    await userEvent.clear(android);
    await userEvent.type(android, "2.4");
    await userEvent.click(screen.getByRole("switch"));
    await userEvent.click(screen.getByRole("button", { name: "Review changes" }));
    expect(
      await screen.findByText("Enter a valid e-mail address, or leave it empty"),
    ).toBeInTheDocument();
    expect(
      screen.getByText("Enter a version as major.minor.patch, e.g. 2.4.0"),
    ).toBeInTheDocument();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(patches()).toHaveLength(0);
  });

  it("takes a problem away once its cause is gone and the change is sent", async () => {
    renderGlobal();
    const problem = "Maintenance needs its message in both languages";
    await userEvent.click(await screen.findByRole("switch"));
    await userEvent.click(screen.getByRole("button", { name: "Review changes" }));
    expect((await screen.findAllByText(problem)).length).toBeGreaterThan(0);

    // Maintenance off again, a version changed instead: saved, and no problem left on the page.
    await userEvent.click(screen.getByRole("switch"));
    const ios = screen.getByLabelText("Minimum iOS app version");
    await userEvent.clear(ios);
    await userEvent.type(ios, "2.5.0");
    await userEvent.click(screen.getByRole("button", { name: "Review changes" }));
    const dialog = await screen.findByRole("dialog");
    await userEvent.type(within(dialog).getByLabelText("Reason for the approver"), "iOS 2.5");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send for approval" }));
    await vi.waitFor(() => expect(patches()).toHaveLength(1));
    await vi.waitFor(() => expect(screen.queryByText(problem)).toBeNull());
  });
});

describe("the theme setting", () => {
  it("saves dark for this administrator and applies the answer", async () => {
    setCurrentAdmin(anAdmin());
    server.use(
      mswHttp.patch(`${API}/api/account/admin`, async ({ request }) =>
        HttpResponse.json(anAdmin((await request.json()) as object)),
      ),
    );
    renderPage("/setting", [], { "/setting": <ThemeCard /> });
    expect(await screen.findByRole("radio", { name: "Light" })).toBeChecked();
    await userEvent.click(screen.getByText("Dark"));
    await vi.waitFor(() => expect(getCurrentAdmin()?.theme).toBe("dark"));
    expect(await patches()[0]!.json()).toEqual({ theme: "dark" });
  });
});
