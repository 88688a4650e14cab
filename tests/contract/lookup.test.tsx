/**
 * Look-up by reference in the console, against msw answering like the server (GET /api/lookup):
 * the command palette offers "Open <kind> <reference>" for a reference typed in full and opens
 * the page the answer names; the dashboard's box opens it on Enter, and says in place, in the
 * console's language, that a reference names nothing (no toast, no navigation). What crosses the
 * wire is the text as typed, trimmed.
 */
import { configure, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { useLocation } from "react-router";

import { CommandPalette } from "../../src/app/command-palette";
import { ReferenceSearch } from "../../src/app/dashboard/reference-search";
import { setCurrentAdmin } from "../../src/providers/current-admin";
import type { LookupAnswer } from "../../src/shared/modules/wallet-transactions";
import { PERMISSION } from "../../src/shared/permissions";
import cnErrors from "../../locales/cn-ZH/errors.json";
import enErrors from "../../locales/en-US/errors.json";
import { anAdmin } from "./support/fixtures";
import { initPageTexts } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderPage } from "./support/render";

const { server, requests } = useApiServer();

configure({ asyncUtilTimeout: 5_000 });
vi.setConfig({ testTimeout: 60_000 });

const KNOWN: Record<string, LookupAnswer> = {
  PY20261128ABCDEFGHIJ: {
    kind: "payment",
    module: "wallet-transactions",
    id: 901,
    reference: "PY20261128ABCDEFGHIJ",
  },
  "INV-202610-000012": {
    kind: "settlement",
    module: "settlements",
    id: 12,
    reference: "INV-202610-000012",
  },
};

/** The server's answer: exact, any case, trimmed; anything else REFERENCE_NOT_FOUND. */
function answerLookups() {
  server.use(
    mswHttp.get(`${API}/api/lookup`, ({ request }) => {
      const typed = new URL(request.url).searchParams.get("reference") ?? "";
      const found = KNOWN[typed.trim().toUpperCase()];
      return found
        ? HttpResponse.json(found)
        : HttpResponse.json(
            { code: "REFERENCE_NOT_FOUND", message: "No record you may open has this reference" },
            { status: 404 },
          );
    }),
  );
}

/** Where the console went. */
function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

const lookups = () => requests.filter((request) => request.url.includes("/api/lookup"));

beforeEach(() => {
  // No code 0: the palette does not search users, only pages and references.
  setCurrentAdmin(anAdmin({ permissions: [PERMISSION.settlement] }));
  answerLookups();
});

describe("the command palette", () => {
  it("offers to open a reference typed in full, and opens its page", async () => {
    await initPageTexts(["common", "menu", "errors"]);
    const user = userEvent.setup();
    renderPage("/dashboard", [], { "/dashboard": <CommandPalette />, "*": <Where /> });
    await user.keyboard("{Control>}k{/Control}");
    await user.type(await screen.findByRole("combobox"), " py20261128abcdefghij ");
    const option = await screen.findByRole("option", {
      name: /Open payment PY20261128ABCDEFGHIJ/,
    });
    expect(option).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{Enter}");
    expect(await screen.findByTestId("where")).toHaveTextContent("/wallet-transaction/901");
    const sent = lookups().map((request) => new URL(request.url).searchParams.get("reference"));
    expect(sent).toContain("py20261128abcdefghij");
  });

  it("offers nothing for a reference that names nothing, without a toast", async () => {
    await initPageTexts(["common", "menu", "errors"]);
    const user = userEvent.setup();
    renderPage("/dashboard", [], { "/dashboard": <CommandPalette />, "*": <Where /> });
    await user.keyboard("{Control>}k{/Control}");
    await user.type(await screen.findByRole("combobox"), "PY20260101NOSUCHREF0");
    await vi.waitFor(() => expect(lookups().length).toBeGreaterThan(0));
    expect(await screen.findByText("Nothing matches.")).toBeInTheDocument();
    expect(screen.queryByRole("option", { name: /^Open / })).not.toBeInTheDocument();
    expect(document.querySelector(".ant-notification-notice")).toBeNull();
  });

  it("does not ask the server about text that cannot be a reference", async () => {
    await initPageTexts(["common", "menu", "errors"]);
    const user = userEvent.setup();
    renderPage("/dashboard", [], { "/dashboard": <CommandPalette /> });
    await user.keyboard("{Control>}k{/Control}");
    await user.type(await screen.findByRole("combobox"), "settle");
    expect(await screen.findAllByRole("option", { name: /Settlement/ })).not.toHaveLength(0);
    expect(lookups()).toEqual([]);
  });
});

describe("the dashboard's search by reference", () => {
  it("opens a settlement by its invoice number on Enter", async () => {
    await initPageTexts(["dashboard", "common", "errors"]);
    const user = userEvent.setup();
    renderPage("/dashboard", [], { "/dashboard": <ReferenceSearch />, "*": <Where /> });
    await user.type(
      await screen.findByRole("searchbox", { name: "Reference" }),
      "inv-202610-000012{Enter}",
    );
    expect(await screen.findByTestId("where")).toHaveTextContent("/settlement-details/12");
  });

  it("says in place that a reference or a wildcard names nothing, and stays", async () => {
    await initPageTexts(["dashboard", "common", "errors"]);
    const user = userEvent.setup();
    renderPage("/dashboard", [], { "/dashboard": <ReferenceSearch />, "*": <Where /> });
    const box = await screen.findByRole("searchbox", { name: "Reference" });
    await user.type(box, "PY%{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent(enErrors.codes.REFERENCE_NOT_FOUND);
    expect(screen.queryByTestId("where")).not.toBeInTheDocument();
    expect(document.querySelector(".ant-notification-notice")).toBeNull();
    const sent = lookups().map((request) => new URL(request.url).searchParams.get("reference"));
    expect(sent).toEqual(["PY%"]);
    // Typing again clears the message.
    await user.type(box, "1");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("speaks Chinese in a Chinese console", async () => {
    await initPageTexts(["dashboard", "common", "errors"], { language: "cn-ZH", fallback: false });
    const user = userEvent.setup();
    renderPage("/dashboard", [], { "/dashboard": <ReferenceSearch /> });
    await user.type(await screen.findByRole("searchbox", { name: "参考号" }), "RPT-999999{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent(cnErrors.codes.REFERENCE_NOT_FOUND);
  });
});
