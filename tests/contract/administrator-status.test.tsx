/**
 * Power over an administrator moves only through the module's declared actions: the status
 * buttons (enable, disable, ban) call PATCH …/{id}/status after a confirmation, and the edit form
 * holds name and e-mail only, so it never sends a status.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import type { AdminDto } from "../../src/providers/api-types";
import { administrators } from "../../src/resources/administrators";
import AdministratorEdit from "../../src/resources/administrators/edit";
import { StatusToggle } from "../../src/resources/administrators/status-toggle";
import { anAdmin } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 20_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "admin"]);
});

const NAME = "Aisyah Rahman";

function renderToggle(admin: AdminDto) {
  return renderPage("/", [administrators.resource], { "/": <StatusToggle admin={admin} /> });
}

const buttonNames = () => screen.queryAllByRole("button").map((button) => button.ariaLabel);

describe("the administrator status buttons", () => {
  it.each([
    ["active", [`Disable ${NAME}`, `Ban ${NAME}`]],
    ["disabled", [`Enable ${NAME}`, `Ban ${NAME}`]],
    ["banned", [`Enable ${NAME}`]],
  ] as const)("offer what the declared action allows for a %s administrator", (status, names) => {
    renderToggle(anAdmin({ status }));
    expect(buttonNames()).toEqual(names);
  });

  it("offer nothing for a super administrator", () => {
    renderToggle(anAdmin({ isSuperAdmin: true }));
    expect(screen.queryAllByRole("button")).toEqual([]);
  });

  it("ban after confirmation, through the declared status action", async () => {
    server.use(
      mswHttp.patch(`${API}/api/administrators/7/status`, () =>
        HttpResponse.json(anAdmin({ status: "banned" })),
      ),
    );
    renderToggle(anAdmin({ status: "disabled" }));
    const ban = screen.getByRole("button", { name: `Ban ${NAME}` });
    expect(ban).toHaveClass("ant-btn-dangerous");
    await userEvent.click(ban);
    const confirm = await screen.findByRole("tooltip");
    expect(within(confirm).getByText(`Ban ${NAME}?`)).toBeInTheDocument();
    expect(requests).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole("button", { name: "Ban" }));
    expect(await screen.findByText(`${NAME} banned`)).toBeInTheDocument();
    const sent = requests.find((request) => request.method === "PATCH")!;
    expect(new URL(sent.url).pathname).toBe("/v1/api/administrators/7/status");
    expect(await sent.json()).toEqual({ status: "banned" });
  });

  it("explain a refusal of the ban in the staff member's words", async () => {
    server.use(
      mswHttp.patch(`${API}/api/administrators/7/status`, () =>
        HttpResponse.json(
          { code: "SELF_STATUS_CHANGE", message: "You cannot change your own status" },
          { status: 409 },
        ),
      ),
    );
    renderToggle(anAdmin());
    await userEvent.click(screen.getByRole("button", { name: `Ban ${NAME}` }));
    await userEvent.click(
      within(await screen.findByRole("tooltip")).getByRole("button", { name: "Ban" }),
    );
    expect(
      await screen.findByText(`The status of ${NAME} could not be changed`),
    ).toBeInTheDocument();
    expect(screen.getByText("You cannot disable or ban your own account.")).toBeInTheDocument();
  });
});

describe("the administrator edit form", () => {
  it("holds name and e-mail only, and sends only what changed", async () => {
    server.use(
      mswHttp.get(`${API}/api/administrators/7`, () => HttpResponse.json(anAdmin())),
      mswHttp.post(`${API}/user-mgmt/check-email-available`, () =>
        HttpResponse.json({ available: true }),
      ),
      mswHttp.patch(`${API}/api/administrators/7`, () =>
        HttpResponse.json(anAdmin({ name: "Aisyah R." })),
      ),
    );
    renderPage("/manage-admin/7/edit", [administrators.resource], {
      "/manage-admin/:id/edit": <AdministratorEdit />,
      "/manage-admin/:id": <p>shown</p>,
    });
    const name = await screen.findByLabelText("Name");
    await vi.waitFor(() => expect(name).toHaveValue(NAME));
    expect(screen.getByLabelText("Email")).toHaveValue("aisyah@ucsi.example");
    expect(screen.queryByLabelText("Status")).toBeNull();
    expect(screen.queryByRole("combobox")).toBeNull();

    await userEvent.clear(name);
    await userEvent.type(name, "Aisyah R.");
    await userEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await vi.waitFor(() =>
      expect(requests.some((request) => request.method === "PATCH")).toBe(true),
    );
    const sent = requests.find((request) => request.method === "PATCH")!;
    expect(new URL(sent.url).pathname).toBe("/v1/api/administrators/7");
    expect(await sent.json()).toEqual({ name: "Aisyah R." });
  });
});
