/**
 * Record versions in the console against msw (issue 35, docs/versions.md): the edit form and an
 * action's dialog send the version they were based on as If-Match; a 409 VERSION_CONFLICT opens
 * the conflict dialog, which shows each field as it was when opened → theirs now → yours, in the
 * module's terms, with who changed it and when; "Apply mine on top" sends the same change again
 * with the new version, "Discard mine" puts theirs in the form.
 */
import { configure, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeAll, describe, expect, it, vi } from "vitest";

import cnBusiness from "../../locales/cn-ZH/business.json";
import cnKit from "../../locales/cn-ZH/kit.json";
import { formatDateTime } from "../../src/app/format";
import { DecisionDialog } from "../../src/app/kit/decision";
import GeneratedEdit from "../../src/app/kit/generated-edit";
import { resourceOf } from "../../src/app/kit/resource";
import { conflictRows, VersionConflictDialog } from "../../src/app/kit/version-conflict";
import { dataProvider } from "../../src/providers/data";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import { etagOf, type VersionConflictData } from "../../src/shared/kit/versions";
import { administrators as adminResource } from "../../src/resources/administrators";
import AdministratorEdit from "../../src/resources/administrators/edit";
import { EditRiderDialog } from "../../src/resources/users/rider/edit-dialog";
import { RIDER_DETAILS_URL, RIDER_EDIT_URL } from "../../src/resources/users/rider/requests";
import type { RiderDetails, UserDetail } from "../../src/providers/api-types";
import { businesses } from "../../src/shared/modules/businesses";
import { anAdmin } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderInRefine, renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await initPageTexts(["common", "errors", "kit", "menu", "business", "admin", "users", "riders"]);
});

const BUSINESS = {
  id: 7,
  name: "Library Café",
  registrationNumber: "202300012345-A",
  category: "cafe",
  status: "approved",
  ownerUserId: 5,
  ownerName: "Nur Aina",
  ownerAccountNumber: "UC000005",
  feeRateBp: 200,
  bankName: "Maybank",
  bankAccount: "•••• 1234",
  remark: null,
  reviewerId: null,
  reviewerName: null,
  reviewedAt: null,
  createdAt: "2026-01-04T05:06:07.000Z",
  updatedAt: "2026-01-04T05:06:07.000Z",
  version: 3,
};

const CHANGED_AT = "2026-11-28T03:04:00.000Z";

/** The 409 a save based on version 3 gets once Amir saved a rate of 2.50 % (version 4). */
const conflictBody = (current: Record<string, unknown>) => ({
  code: "VERSION_CONFLICT",
  message: "Someone changed this record after you opened it: nothing was saved.",
  data: {
    current,
    version: current.version as number,
    yourVersion: 3,
    etag: etagOf("businesses", 7, current.version as number),
    lastChange: {
      adminId: 2,
      adminName: "Amir Hamzah",
      action: "business.update",
      at: CHANGED_AT,
      before: { feeRateBp: 200 },
      after: { feeRateBp: 250 },
    },
  } satisfies VersionConflictData,
});

const patches = () =>
  requests.filter((request) => request.method === "PATCH" || request.method === "POST");

function renderEdit() {
  server.use(mswHttp.get(`${API}/api/businesses/7`, () => HttpResponse.json(BUSINESS)));
  const user = userEvent.setup();
  renderPage("/business-details/7/edit", [resourceOf(businesses).resource], {
    "/business-details/:id/edit": <GeneratedEdit />,
    "/business-details/:id": <p>The business's page</p>,
  });
  return user;
}

describe("the data provider", () => {
  it("sends the headers a record call is given (the If-Match of the version it was based on)", async () => {
    server.use(
      mswHttp.patch(`${API}/api/businesses/7`, () =>
        HttpResponse.json({ ...BUSINESS, feeRateBp: 250, version: 4 }),
      ),
    );
    await dataProvider.update({
      resource: "businesses",
      id: 7,
      variables: { feeRateBp: 250 },
      meta: { headers: { "If-Match": etagOf("businesses", 7, 3) } },
    });
    expect(patches()[0]!.headers.get("if-match")).toBe('"businesses/7/3"');
  });
});

describe("the edit form", () => {
  it("sends If-Match; on a conflict shows old → theirs → yours with who and when, and re-applies with the new version", async () => {
    const theirs = { ...BUSINESS, feeRateBp: 250, version: 4 };
    let saves = 0;
    server.use(
      mswHttp.patch(`${API}/api/businesses/7`, async ({ request }) => {
        saves += 1;
        const body = (await request.json()) as { feeRateBp: number };
        if (request.headers.get("if-match") === etagOf("businesses", 7, 3)) {
          return HttpResponse.json(conflictBody(theirs), { status: 409 });
        }
        return HttpResponse.json({ ...theirs, ...body, version: 5 });
      }),
    );
    const user = renderEdit();
    const input = await screen.findByRole("spinbutton", { name: "Fee rate" });
    await user.clear(input);
    await user.type(input, "3");
    await user.click(screen.getByRole("button", { name: "Save the fee rate" }));

    const dialog = await screen.findByRole("dialog", { name: "Someone else changed this record" });
    expect(patches()[0]!.headers.get("if-match")).toBe('"businesses/7/3"');
    expect(
      within(dialog).getByText(
        `Amir Hamzah changed Library Café at ${formatDateTime(CHANGED_AT)}, after you opened it. Nothing of yours was saved yet.`,
      ),
    ).toBeInTheDocument();
    const row = dialog.querySelector('[data-field="feeRateBp"]')!;
    expect(within(row as HTMLElement).getByText("Fee rate")).toBeInTheDocument();
    expect(row.querySelector('[data-side="old"]')).toHaveTextContent("2.00%");
    expect(row.querySelector('[data-side="theirs"]')).toHaveTextContent("2.50%");
    expect(row.querySelector('[data-side="yours"]')).toHaveTextContent("3.00%");
    // Nothing but what changed or what is sent is compared.
    expect(dialog.querySelector('[data-field="name"]')).toBeNull();

    await user.click(within(dialog).getByRole("button", { name: "Apply mine on top" }));
    await screen.findByText("The business's page");
    expect(saves).toBe(2);
    const [, again] = patches();
    expect(again!.headers.get("if-match")).toBe('"businesses/7/4"');
    expect(await again!.json()).toEqual({ feeRateBp: 300 });
  });

  it("discards mine: the form shows theirs and is based on their version", async () => {
    const theirs = { ...BUSINESS, feeRateBp: 250, version: 4 };
    server.use(
      mswHttp.patch(`${API}/api/businesses/7`, ({ request }) =>
        request.headers.get("if-match") === etagOf("businesses", 7, 3)
          ? HttpResponse.json(conflictBody(theirs), { status: 409 })
          : HttpResponse.json({ ...theirs, version: 5 }),
      ),
    );
    const user = renderEdit();
    const input = await screen.findByRole("spinbutton", { name: "Fee rate" });
    await user.clear(input);
    await user.type(input, "3");
    await user.click(screen.getByRole("button", { name: "Save the fee rate" }));
    const dialog = await screen.findByRole("dialog", { name: "Someone else changed this record" });
    await user.click(within(dialog).getByRole("button", { name: "Discard mine" }));
    expect(await screen.findByRole("spinbutton", { name: "Fee rate" })).toHaveValue("2.50");
    await user.click(screen.getByRole("button", { name: "Save the fee rate" }));
    await screen.findByText("The business's page");
    expect(patches()[1]!.headers.get("if-match")).toBe('"businesses/7/4"');
  });
});

describe("an action's dialog", () => {
  it("sends the row's version; a conflict shows the same dialog and re-applies with the new version", async () => {
    setCurrentAdmin(anAdmin({ id: 9, permissions: [4] }));
    const theirs = { ...BUSINESS, bankName: "CIMB", version: 4 };
    server.use(
      mswHttp.post(`${API}/api/businesses/7/suspend`, ({ request }) =>
        request.headers.get("if-match") === etagOf("businesses", 7, 3)
          ? HttpResponse.json(conflictBody(theirs), { status: 409 })
          : HttpResponse.json({ ...theirs, status: "suspended", version: 5 }),
      ),
    );
    const onClose = vi.fn();
    const user = renderInRefine(
      <DecisionDialog
        module={businesses}
        action={businesses.actions.suspend}
        request={{ action: "suspend", verb: "suspend", rows: [BUSINESS] }}
        onDecided={() => undefined}
        onClose={onClose}
      />,
    );
    await user.type(await screen.findByRole("textbox"), "Unpaid fees");
    await user.click(screen.getByRole("button", { name: /Suspend/ }));
    const dialog = await screen.findByRole("dialog", { name: "Someone else changed this record" });
    expect(patches()[0]!.headers.get("if-match")).toBe('"businesses/7/3"');
    const row = dialog.querySelector('[data-field="bankName"]')!;
    expect(row.querySelector('[data-side="old"]')).toHaveTextContent("Maybank");
    expect(row.querySelector('[data-side="theirs"]')).toHaveTextContent("CIMB");
    await user.click(within(dialog).getByRole("button", { name: "Apply mine on top" }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches()[1]!.headers.get("if-match")).toBe('"businesses/7/4"');
    expect(await patches()[1]!.json()).toEqual({ remark: "Unpaid fees" });
  });
});

describe("a hand-written edit screen (the administrators')", () => {
  it("sends the version it opened on and shows the conflict, re-applying with the new version", async () => {
    setCurrentAdmin(anAdmin({ id: 1, permissions: [8], isSuperAdmin: true }));
    const opened = {
      ...anAdmin({ id: 12, name: "Lim Wei", email: "lim@ucsi.example" }),
      version: 2,
    };
    const theirs = { ...opened, email: "lim.wei@ucsi.example", version: 3 };
    server.use(
      mswHttp.get(`${API}/api/administrators/12`, () => HttpResponse.json(opened)),
      mswHttp.post(`${API}/user-mgmt/check-email-available`, () =>
        HttpResponse.json({ available: true }),
      ),
      mswHttp.patch(`${API}/api/administrators/12`, ({ request }) =>
        request.headers.get("if-match") === etagOf("administrators", 12, 2)
          ? HttpResponse.json(
              {
                ...conflictBody(theirs),
                data: { ...conflictBody(theirs).data, etag: etagOf("administrators", 12, 3) },
              },
              { status: 409 },
            )
          : HttpResponse.json({ ...theirs, name: "Lim Wei Jie", version: 4 }),
      ),
    );
    const user = userEvent.setup();
    renderPage("/manage-admin/12/edit", [adminResource.resource], {
      "/manage-admin/:id/edit": <AdministratorEdit />,
      "/manage-admin/:id": <p>The administrator's page</p>,
    });
    const name = await screen.findByRole("textbox", { name: "Name" });
    await user.clear(name);
    await user.type(name, "Lim Wei Jie");
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    const dialog = await screen.findByRole("dialog", { name: "Someone else changed this record" });
    const email = dialog.querySelector('[data-field="email"]')!;
    expect(email.querySelector('[data-side="old"]')).toHaveTextContent("lim@ucsi.example");
    expect(email.querySelector('[data-side="theirs"]')).toHaveTextContent("lim.wei@ucsi.example");
    const named = dialog.querySelector('[data-field="name"]')!;
    expect(named.querySelector('[data-side="yours"]')).toHaveTextContent("Lim Wei Jie");
    await user.click(within(dialog).getByRole("button", { name: "Apply mine on top" }));
    await screen.findByText("The administrator's page");
    const sent = patches().filter((request) => request.url.endsWith("/api/administrators/12"));
    expect(sent[0]!.headers.get("if-match")).toBe('"administrators/12/2"');
    expect(sent[1]!.headers.get("if-match")).toBe('"administrators/12/3"');
    expect(await sent[1]!.json()).toEqual({ name: "Lim Wei Jie" });
  });
});

describe("in Chinese", () => {
  it("words the dialog and the module's labels and values in cn-ZH, with no English fallback", async () => {
    await initPageTexts(["common", "errors", "kit", "menu", "business"], {
      language: "cn-ZH",
      fallback: false,
    });
    try {
      const theirs = { ...BUSINESS, feeRateBp: 250, version: 4 };
      renderInRefine(
        <VersionConflictDialog
          module={businesses}
          conflict={conflictBody(theirs).data}
          based={BUSINESS}
          yours={{ feeRateBp: 300 }}
          onApply={() => undefined}
          onDiscard={() => undefined}
        />,
      );
      const dialog = await screen.findByRole("dialog", { name: cnKit.versions.title });
      expect(
        within(dialog).getByRole("button", { name: cnKit.versions.apply }),
      ).toBeInTheDocument();
      expect(
        within(dialog).getByRole("button", { name: cnKit.versions.discard }),
      ).toBeInTheDocument();
      expect(within(dialog).getByText(cnBusiness.fields.feeRateBp)).toBeInTheDocument();
      expect(within(dialog).getByText(cnKit.versions.theirs)).toBeInTheDocument();
      expect(dialog.textContent).toContain("Amir Hamzah");
      expect(dialog.textContent).not.toMatch(/versions\.|When you opened|Theirs|Apply mine/);
    } finally {
      await initPageTexts([
        "common",
        "errors",
        "kit",
        "menu",
        "business",
        "admin",
        "users",
        "riders",
      ]);
    }
  });
});

describe("the comparison", () => {
  it("lists what they changed and what yours changes, in declaration order, never the version", () => {
    const rows = conflictRows(
      Object.keys(businesses.fields),
      BUSINESS,
      { ...BUSINESS, bankName: "CIMB", version: 9 },
      { feeRateBp: 300 },
    );
    expect(rows.map((row) => row.field)).toEqual(["feeRateBp", "bankName"]);
    expect(rows[0]).toEqual({ field: "feeRateBp", old: 200, theirs: 200, yours: { value: 300 } });
  });
});

describe("a hand-written form whose fields are not the module's: the rider's edit", () => {
  const FACTS = {
    vehicleType: "motorcycle",
    plate: "WA 1234",
    licenceNumber: "D1234",
    verificationStatus: "Approved",
    verificationRemarks: null,
  } as const;
  const USER = {
    id: 9,
    accountNumber: "R0000009",
    name: "Ravi Kumar",
    role: "rider",
    version: 3,
    rider: FACTS,
  } as unknown as UserDetail;
  const RIDER = { ...FACTS, documents: [] } as RiderDetails["rider"];

  it("sends the user's version; a conflict compares the rider's facts and re-applies on top", async () => {
    const theirs = { ...RIDER, plate: "WA 9999" };
    const edits: Array<{ ifMatch: string | null; plate: FormDataEntryValue | null }> = [];
    server.use(
      mswHttp.post(`${API}${RIDER_EDIT_URL}`, async ({ request }) => {
        const ifMatch = request.headers.get("if-match");
        edits.push({ ifMatch, plate: (await request.formData()).get("plate") });
        if (ifMatch === etagOf("users", 9, 3)) {
          return HttpResponse.json(
            {
              code: "VERSION_CONFLICT",
              message: "Someone changed this record after you opened it: nothing was saved.",
              data: {
                current: { ...USER, version: 4 },
                version: 4,
                yourVersion: 3,
                etag: etagOf("users", 9, 4),
                lastChange: {
                  adminId: 2,
                  adminName: "Amir Hamzah",
                  action: "rider.edit",
                  at: CHANGED_AT,
                  before: { plate: "WA 1234" },
                  after: { plate: "WA 9999" },
                },
              } satisfies VersionConflictData,
            },
            { status: 409 },
          );
        }
        return HttpResponse.json({ user: { ...USER, version: 5 }, rider: theirs });
      }),
      mswHttp.get(`${API}${RIDER_DETAILS_URL}`, () =>
        HttpResponse.json({ user: { ...USER, version: 4 }, rider: theirs }),
      ),
    );
    const onClose = vi.fn();
    const user = renderInRefine(
      <EditRiderDialog user={USER} rider={RIDER} onClose={onClose} onDone={() => undefined} />,
    );
    const plate = await screen.findByRole("textbox", { name: "Plate number" });
    await user.clear(plate);
    await user.type(plate, "WB 1");
    await user.click(screen.getByRole("button", { name: "Save" }));
    // jsdom gives both dialogs' titles one id (antd's useId under test): found by its title's text.
    const title = await screen.findByText("Someone else changed this record");
    const dialog = title.closest('[role="dialog"]') as HTMLElement;
    expect(edits[0]!.ifMatch).toBe('"users/9/3"');
    expect(
      within(dialog).getByText(
        `Amir Hamzah changed Ravi Kumar at ${formatDateTime(CHANGED_AT)}, after you opened it. Nothing of yours was saved yet.`,
      ),
    ).toBeInTheDocument();
    const row = dialog.querySelector('[data-field="plate"]') as HTMLElement;
    expect(within(row).getByText("Plate number")).toBeInTheDocument();
    expect(row.querySelector('[data-side="old"]')).toHaveTextContent("WA 1234");
    expect(row.querySelector('[data-side="theirs"]')).toHaveTextContent("WA 9999");
    expect(row.querySelector('[data-side="yours"]')).toHaveTextContent("WB 1");
    // The vehicle nobody changed and the form sends as it was is not compared.
    expect(dialog.querySelector('[data-field="vehicleType"]')).toBeNull();

    await user.click(within(dialog).getByRole("button", { name: "Apply mine on top" }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(edits).toEqual([
      { ifMatch: '"users/9/3"', plate: "WB 1" },
      { ifMatch: '"users/9/4"', plate: "WB 1" },
    ]);
  });
});
