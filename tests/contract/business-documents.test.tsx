/**
 * A business's documents as the detail page asks for them (msw): the list and what is missing,
 * staff adding a document (multipart, one field per kind), the browser's checks before sending,
 * and the server's refusals in the staff's language.
 */
import { screen } from "@testing-library/react";
import { http as mswHttp, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";

import cnBusiness from "../../locales/cn-ZH/business.json";
import enBusiness from "../../locales/en-US/business.json";
import { dataProvider } from "../../src/providers/data";
import { setToken } from "../../src/providers/session";
import { documentErrorText } from "../../src/resources/businesses/errors";
import { BusinessDocumentsPanel } from "../../src/resources/businesses/documents-panel";
import {
  businessDocumentForm,
  businessDocumentsUrl,
  businessFileProblem,
} from "../../src/resources/businesses/requests";
import { DOCUMENT_MAX_BYTES } from "../../src/shared/documents";
import type { BusinessDocuments } from "../../src/shared/schemas/business-documents";
import { aToken } from "./support/fixtures";
import { initPageTexts, t } from "./support/i18n";
import { API, useApiServer } from "./support/msw";
import { renderInRefine } from "./support/render";

const { server, requests } = useApiServer();
vi.setConfig({ testTimeout: 20_000 });

const LISTED: BusinessDocuments = {
  documents: [
    {
      id: "a".repeat(32),
      kind: "registration_certificate",
      name: "kiosk-registration.pdf",
      contentType: "application/pdf",
      size: 2048,
      uploadedAt: "2026-11-02T03:00:00.000Z",
      uploadedByName: null,
      downloadPath: `/api/businesses/7/documents/${"a".repeat(32)}`,
    },
  ],
  missing: ["bank_letter"],
};

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

beforeEach(async () => {
  setToken(aToken());
  await initPageTexts(["business", "errors", "common"], { language: "en-US" });
});

describe("the documents panel", () => {
  it("lists the documents and says which kind is missing", async () => {
    server.use(mswHttp.get(`${API}${businessDocumentsUrl(7)}`, () => HttpResponse.json(LISTED)));
    renderInRefine(<BusinessDocumentsPanel businessId={7} />);
    expect(await screen.findByText("kiosk-registration.pdf")).toBeInTheDocument();
    expect(screen.getByText("Missing before approval: Bank letter.")).toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "Download kiosk-registration.pdf" }),
    ).toBeInTheDocument();
    expect(new URL(requests.at(-1)!.url).pathname).toBe("/v1/api/businesses/7/documents");
  });
});

describe("adding a document", () => {
  it("posts one file in the field of its kind", async () => {
    server.use(mswHttp.post(`${API}${businessDocumentsUrl(7)}`, () => HttpResponse.json(LISTED)));
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "letter.png", {
      type: "image/png",
    });
    await dataProvider.custom!({
      url: businessDocumentsUrl(7),
      method: "post",
      payload: businessDocumentForm("bank_letter", png),
    });
    const sent = requests.at(-1)!;
    expect(sent.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    const form = await sent.formData();
    expect(form.getAll("bankLetter")).toHaveLength(1);
    expect(form.getAll("registrationCertificate")).toHaveLength(0);
    const built = businessDocumentForm("registration_certificate", png);
    expect((built.get("registrationCertificate") as File).name).toBe("letter.png");
  });

  it("refuses in the browser a name that is not .pdf/.jpg/.jpeg/.png, over 5 MB, or empty", () => {
    expect(businessFileProblem(new File(["%PDF"], "a.PDF"))).toBeUndefined();
    expect(businessFileProblem(new File(["x"], "scan.jpeg"))).toBeUndefined();
    expect(businessFileProblem(new File(["x"], "letter.docx"))).toBe("type");
    expect(businessFileProblem(new File(["x"], "pdf"))).toBe("type");
    expect(businessFileProblem(new File([new Uint8Array(DOCUMENT_MAX_BYTES + 1)], "b.png"))).toBe(
      "size",
    );
    expect(businessFileProblem(new File([], "e.pdf"))).toBe("empty");
  });

  it.each([
    [400, "DOCUMENT_TYPE_MISMATCH"],
    [413, "DOCUMENT_TOO_LARGE"],
    [400, "INVALID_DOCUMENT_TYPE"],
    [400, "DOCUMENT_REQUIRED"],
  ] as const)("translates the server's %i %s in both languages", async (status, code) => {
    server.use(
      mswHttp.post(`${API}${businessDocumentsUrl(7)}`, () =>
        HttpResponse.json({ code, message: "server text" }, { status }),
      ),
    );
    const error = await failureOf(
      dataProvider.custom!({
        url: businessDocumentsUrl(7),
        method: "post",
        payload: businessDocumentForm("bank_letter", new File(["x"], "x.png")),
      }),
    );
    expect(documentErrorText(error, t)).toBe(enBusiness.errors[code]);
    await initPageTexts(["business", "errors", "common"], { language: "cn-ZH" });
    expect(documentErrorText(error, t)).toBe(cnBusiness.errors[code]);
  });
});
