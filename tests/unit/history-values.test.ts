/**
 * What a record's history shows of values no cell draws: rich text as the text a reader sees
 * (blocks apart, nothing run or loaded), a structured value in words, and which fields a module
 * writes as rich text and which only hold the id behind a linked name.
 */
import { describe, expect, it } from "vitest";

import { auditChanges, linkIdFields } from "../../src/app/kit/audit-changes";
import {
  HISTORY_TEXT_MAX,
  htmlText,
  richTextFields,
  structuredText,
} from "../../src/app/kit/history-values";
import { helpArticles } from "../../src/shared/modules/help-articles";
import { merchantAnnouncements } from "../../src/shared/modules/merchant-announcements";
import { topUps } from "../../src/shared/modules/top-ups";

describe("htmlText", () => {
  it("keeps the words, each block apart, and drops the markup", () => {
    expect(
      htmlText("<h2>Night</h2><ul><li>Block <strong>D</strong></li><li>Gate B</li></ul>"),
    ).toBe("Night · Block D · Gate B");
    expect(htmlText("<p>a &amp; b</p><p><img src=x onerror=alert(1)></p>")).toBe("a & b");
  });

  it("shows at most HISTORY_TEXT_MAX characters of a long body", () => {
    const text = htmlText(`<p>${"word ".repeat(100)}</p>`);
    expect(text.endsWith("…")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(HISTORY_TEXT_MAX + 1);
  });
});

describe("structuredText", () => {
  it("words an object by its labels and a list item by item", () => {
    const label = (key: string) => ({ mon: "Monday", sat: "Saturday" })[key] ?? key;
    expect(
      structuredText({ mon: "08:00–22:00", sat: null }, label, (value) => String(value ?? "—")),
    ).toBe("Monday: 08:00–22:00, Saturday: —");
    expect(structuredText([{ mon: "9" }, { sat: "10" }], label, String)).toBe(
      "Monday: 9; Saturday: 10",
    );
  });
});

describe("the fields a history reads from a declaration", () => {
  it("knows the rich-text bodies from the forms' inputs", () => {
    expect([...richTextFields(helpArticles)].sort()).toEqual(["bodyEn", "bodyZh"]);
    expect([...richTextFields(merchantAnnouncements)].sort()).toEqual(["bodyEn", "bodyZh"]);
    expect(richTextFields(topUps).size).toBe(0);
  });

  it("leaves out the ids behind linked names, and blanks on both sides", () => {
    expect([...linkIdFields(topUps)].sort()).toEqual(["adminId", "agentUserId", "id", "userId"]);
    expect(
      auditChanges(
        null,
        { userId: 5, accountNumber: "UC000005", agentUserId: null, agentName: null, amountSen: 5 },
        topUps,
      ).map((change) => change.field),
    ).toEqual(["accountNumber", "amountSen"]);
  });
});
