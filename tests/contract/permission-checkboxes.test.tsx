/**
 * The permission editor offers the fourteen permission modules, each of which guards a page of
 * this build (a declared module's or the shell's own); saving keeps the held codes in the table's
 * order. Power granted or taken waits for a second approver (docs/four-eyes.md): the editor says
 * so, sends nothing without the maker's reason, sends it as the `x-change-reason` header and, on
 * the 202 answer, names the change request instead of saying the permissions were saved.
 */
import { configure, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import { resourceModules } from "../../src/resources";
import { PermissionCheckboxes } from "../../src/resources/administrators/permission-checkboxes";
import { PermissionEditor } from "../../src/resources/administrators/permission-editor";
import { CHANGE_REASON_HEADER, type PendingApprovalAnswer } from "../../src/shared/kit/four-eyes";
import { PERMISSION, PERMISSION_MODULES } from "../../src/shared/permissions";
import { anAdmin } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { captureNotifications, renderInRefine } from "./support/render";

const { server, requests } = useApiServer();
const { shown, notifications } = captureNotifications();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "admin"]);
});

describe("the permission editor", () => {
  it("offers every permission module once, each one guarding a page of this build", () => {
    // The shell's own Statistic and Global pages, and the declared modules, guard every code.
    const guarded = new Set([
      PERMISSION.statistic,
      PERMISSION.global,
      ...resourceModules.map((module) => module.resource.meta.permissionCode),
    ]);
    expect(PERMISSION_MODULES.filter((m) => !guarded.has(m.code))).toEqual([]);
    render(<PermissionCheckboxes value={[]} />);
    // One query for all fourteen (a name lookup per box takes seconds in jsdom).
    const offered = screen
      .getAllByRole("checkbox")
      .map((box) => box.closest("label")?.textContent?.match(/\((\d+)\)$/)?.[1]);
    expect(offered).toEqual(PERMISSION_MODULES.map((module) => String(module.code)));
  });

  it("keeps the held codes, in the table's order, when another is ticked", async () => {
    const onChange = vi.fn();
    render(<PermissionCheckboxes value={[PERMISSION.parking]} onChange={onChange} />);
    expect(screen.getByRole("checkbox", { name: /\(39\)$/ })).toBeChecked();
    await userEvent.click(screen.getByRole("checkbox", { name: "User (0)" }));
    expect(onChange).toHaveBeenCalledWith([PERMISSION.user, PERMISSION.parking]);
  });
});

describe("saving permissions, which waits for a second approver", () => {
  const ADMIN = anAdmin({ id: 12, name: "Finance Officer", permissions: [PERMISSION.parking] });
  const PERMISSIONS_URL = `${API}/api/administrators/12/permissions`;
  const PENDING: PendingApprovalAnswer = {
    status: "pending_approval",
    changeRequest: {
      id: 9,
      reference: "CR20261127A00000009",
      status: "pending",
      reason: "Joins the user desk",
      amountSen: null,
      expiresAt: "2026-11-28T02:00:00.000Z",
    },
  };
  const patches = () => requests.filter((request) => request.method === "PATCH");

  async function tickUser() {
    const user = renderInRefine(<PermissionEditor admin={ADMIN} editable />, notifications);
    expect(
      await screen.findByText("This change waits for a second approver before it is applied."),
    ).toBeInTheDocument();
    // Nothing to send yet: no reason is asked for.
    expect(screen.queryByLabelText("Reason for the approver")).not.toBeInTheDocument();
    await user.click(screen.getByRole("checkbox", { name: "User (0)" }));
    return user;
  }

  it("sends nothing without a reason for the approver", async () => {
    const user = await tickUser();
    expect(screen.getByLabelText("Reason for the approver")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save permissions" }));
    expect(await screen.findByText("Please give the approver a reason.")).toBeInTheDocument();
    expect(patches()).toEqual([]);
  });

  it("sends the reason as a header and names the request it became, not 'saved'", async () => {
    server.use(mswHttp.patch(PERMISSIONS_URL, () => HttpResponse.json(PENDING, { status: 202 })));
    const user = await tickUser();
    const reason = "Joins the user desk — 加入用户组";
    await user.type(screen.getByLabelText("Reason for the approver"), reason);
    await user.click(screen.getByRole("button", { name: "Save permissions" }));

    await vi.waitFor(() => expect(patches()).toHaveLength(1));
    const patch = patches()[0]!;
    expect(patch.headers.get(CHANGE_REASON_HEADER)).toBe(encodeURIComponent(reason));
    expect(await patch.json()).toEqual({ permissions: [PERMISSION.user, PERMISSION.parking] });
    await vi.waitFor(() =>
      expect(shown.map((n) => n.message)).toContain(
        "Sent for approval as CR20261127A00000009: another administrator must approve it.",
      ),
    );
    expect(shown.map((n) => n.message).join(" ")).not.toMatch(/saved/);
    // Until the approver agrees, the permissions in force are what the editor shows.
    await vi.waitFor(() =>
      expect(screen.getByRole("checkbox", { name: "User (0)" })).not.toBeChecked(),
    );
    expect(screen.getByRole("checkbox", { name: /\(39\)$/ })).toBeChecked();
  });

  it("shows a refusal in the editor, in the administrator's words, as before", async () => {
    server.use(
      mswHttp.patch(PERMISSIONS_URL, () =>
        HttpResponse.json(
          {
            code: "CHANGE_PENDING",
            message: "A change of this record is waiting for a second approver",
            data: { reference: "CR20261127A00000008" },
          },
          { status: 409 },
        ),
      ),
    );
    const user = await tickUser();
    await user.type(screen.getByLabelText("Reason for the approver"), "Joins the user desk");
    await user.click(screen.getByRole("button", { name: "Save permissions" }));
    expect(await screen.findByText("The permissions could not be saved")).toBeInTheDocument();
    expect(
      screen.getByText(/A change of this record is already waiting for a second approver/),
    ).toBeInTheDocument();
    expect(shown).toEqual([]);
    // What was ticked stays, to be sent again later.
    expect(screen.getByRole("checkbox", { name: "User (0)" })).toBeChecked();
  });
});
