/**
 * The sanitiser through the real API: each known XSS payload (OWASP's filter-evasion cheat sheet,
 * PortSwigger's and html5sec's vectors) is stored as a help article's body, read back, and the
 * stored HTML is walked as a browser would parse it: nothing in it can run.
 */
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";

import { sanitizeBody } from "../../server/content/sanitize";
import { XSS_PAYLOADS } from "../support/xss-payloads";
import { useSignedInApp } from "./support/app";
import { call } from "./support/user-fixtures";

const ALLOWED_TAGS = new Set([
  "h2", "h3", "h4", "p", "br", "hr", "strong", "b", "em", "i", "u", "s", "code", "pre",
  "blockquote", "ul", "ol", "li", "a", "img", "table", "colgroup", "col", "thead", "tbody", "tr",
  "th", "td",
]); // prettier-ignore
const ALLOWED_ATTRIBUTES = new Set([
  "href", "target", "rel", "src", "alt", "title", "width", "height", "start", "colspan", "rowspan",
]); // prettier-ignore
const OWN_IMAGE = /^\/v1\/api\/public\/content-images\/[0-9a-f]{32}$/;

/**
 * What in stored HTML could run or mislead once a browser parses it (empty: nothing), parsed by
 * jsdom's HTML5 parser, as a browser would.
 */
export function executableParts(html: string): string[] {
  const found: string[] = [];
  const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
  for (const element of document.querySelectorAll("head *, body *")) {
    const name = element.localName;
    if (!ALLOWED_TAGS.has(name)) found.push(`tag <${name}>`);
    for (const { name: attribute, value } of Array.from(element.attributes)) {
      if (!ALLOWED_ATTRIBUTES.has(attribute)) found.push(`attribute ${attribute} on <${name}>`);
      if (attribute === "href" && !/^(https?:\/\/|mailto:|tel:)/i.test(value.trim())) {
        found.push(`href ${value}`);
      }
      if (attribute === "src" && !OWN_IMAGE.test(value)) found.push(`src ${value}`);
      if (attribute === "target" && value !== "_blank") found.push(`target ${value}`);
    }
    if (name === "a" && !/\bnoopener\b/.test(element.getAttribute("rel") ?? "")) {
      found.push("link without noopener");
    }
  }
  return found;
}

describe("the sanitiser over known XSS payloads", () => {
  it("has at least 50 payloads", () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
  });

  it("the checker itself finds what each payload would run, before cleaning", () => {
    // A checker that finds nothing in the raw payloads could not fail the test below.
    // (A few are harmless to a current browser as they stand: a conditional comment, a script in
    // a <template>, a script inside an attribute's text.)
    const caught = XSS_PAYLOADS.filter((payload) => executableParts(payload).length > 0);
    expect(caught.length).toBeGreaterThanOrEqual(60);
  });

  it.each(XSS_PAYLOADS.map((payload, i) => [i, payload] as const))(
    "payload %i leaves nothing that runs",
    (_i, payload) => {
      expect(executableParts(sanitizeBody(payload))).toEqual([]);
    },
  );

  it("keeps what the editor makes: headings, lists, links, tables, own images", () => {
    const image = "/v1/api/public/content-images/0123456789abcdef0123456789abcdef";
    const html =
      `<h2>Top up</h2><ol start="2"><li>One</li></ol><ul><li><strong>Two</strong></li></ul>` +
      `<p><a href="https://ucsi.example/help">help</a> <em>now</em></p>` +
      `<p><img src="${image}" alt="Counter"></p>` +
      `<table><tbody><tr><th colspan="2">Head</th></tr><tr><td>a</td><td>b</td></tr></tbody></table>`;
    const clean = sanitizeBody(html);
    expect(clean).toContain("<h2>Top up</h2>");
    expect(clean).toContain('<ol start="2">');
    expect(clean).toContain(
      '<a href="https://ucsi.example/help" target="_blank" rel="noopener noreferrer nofollow">help</a>',
    );
    expect(clean).toContain(`<img src="${image}" alt="Counter" />`);
    expect(clean).toContain('<th colspan="2">Head</th>');
    expect(executableParts(clean)).toEqual([]);
    // Cleaning what is clean changes nothing.
    expect(sanitizeBody(clean)).toBe(clean);
  });
});

describe("stored through the API", () => {
  const suite = useSignedInApp();

  it("stores none of the payloads in a form that runs, in either language", async () => {
    let refused = 0;
    for (const payload of XSS_PAYLOADS) {
      const created = await call(suite.app, suite.token, "POST", "/api/help-articles", {
        category: "account",
        titleEn: "Payload",
        titleZh: "载荷",
        bodyEn: `<p>Visible</p>${payload}`,
        bodyZh: `${payload}<p>可见</p>`,
      });
      // Refused outright, nothing stored: a NUL character (PostgreSQL cannot hold it), or a
      // payload that swallows the visible text after it (an unclosed <noscript>, <style> …), so
      // the body shows nothing once cleaned.
      if (created.statusCode === 400) {
        expect(["VALIDATION_ERROR", "EMPTY_BODY"]).toContain(created.json<{ code: string }>().code);
        refused += 1;
        continue;
      }
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json<{ id: number }>();
      const stored = await call(suite.app, suite.token, "GET", `/api/help-articles/${id}`);
      const { bodyEn, bodyZh } = stored.json<{ bodyEn: string; bodyZh: string }>();
      expect(executableParts(bodyEn), payload).toEqual([]);
      expect(executableParts(bodyZh), payload).toEqual([]);
      expect(bodyEn).toContain("<p>Visible</p>");
    }
    expect(refused).toBeLessThan(10);
  }, 180_000);

  it("refuses a body that shows nothing once cleaned, storing nothing", async () => {
    const response = await call(suite.app, suite.token, "POST", "/api/help-articles", {
      category: "account",
      titleEn: "Only a script",
      titleZh: "只有脚本",
      bodyEn: "<script>alert(1)</script>",
      bodyZh: "<p>有内容</p>",
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: "EMPTY_BODY", data: { language: "en-US" } });
  });
});
