/**
 * The calculator's build-time HTML (src/calculator/prerender.tsx): what it holds, that the page
 * hydrates it without a mismatch and then shows the saved figures, and that the inline script
 * picks the same language as the page will (src/calculator/early.ts).
 */
import { hydrateRoot, type Root } from "react-dom/client";
import { act, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import enUS from "../../../locales/en-US/calculator.json";
import { CalculatorApp } from "../../../src/calculator/calculator-app";
import { WAIT_ATTRIBUTE, earlyLanguage, type EarlyOptions } from "../../../src/calculator/early";
import { prerenderCalculator } from "../../../src/calculator/prerender";
import { INPUTS_STORAGE_KEY } from "../../../src/calculator/storage";
import { HTML_LANG, LANGUAGE_STORAGE_KEY, pickInitialLanguage } from "../../../src/shared/language";

afterEach(() => {
  localStorage.clear();
  document.body.replaceChildren();
  document.documentElement.removeAttribute(WAIT_ATTRIBUTE);
  document.documentElement.lang = "en";
  document.head.querySelectorAll("link").forEach((link) => link.remove());
  vi.restoreAllMocks();
});

describe("the calculator's HTML", () => {
  it("is the English page with its sections, fields, result groups and an empty form", async () => {
    const page = await prerenderCalculator();
    expect(page).toMatchObject({
      language: "en-US",
      htmlLang: "en",
      title: "Financial Goal Calculator",
      description: expect.stringContaining("ten financial ratios"),
    });
    const holder = document.createElement("div");
    holder.innerHTML = page.markup;
    const text = holder.textContent ?? "";
    for (const expected of [
      "Financial Ratios Input",
      "Assets",
      "Liabilities",
      "Cashflow",
      "Take-home income after tax and provident fund.",
      "Cashflow Health",
      "Debt Health",
      "Asset Health",
      "Email Me My Report",
    ]) {
      expect(text).toContain(expected);
    }
    const inputs = [...holder.querySelectorAll("input")];
    expect(inputs).toHaveLength(15);
    expect(inputs.every((input) => input.value === "")).toBe(true);
    expect(holder.querySelectorAll("li")).toHaveLength(10);
  });

  it("hydrates without a mismatch, keeps its elements, and then shows the saved figures", async () => {
    localStorage.setItem(INPUTS_STORAGE_KEY, JSON.stringify({ cashAndCashEquivalents: "30000" }));
    const page = await prerenderCalculator();
    const container = document.createElement("div");
    container.innerHTML = page.markup;
    document.body.append(container);
    const heading = container.querySelector("h1");
    // Typed into the HTML before the script ran.
    container.querySelector<HTMLInputElement>("#field-totalMonthlyExpenses")!.value = "6000";

    const problems: unknown[] = [];
    vi.spyOn(console, "error").mockImplementation((...args) => problems.push(args));
    let root: Root | undefined;
    await act(async () => {
      root = hydrateRoot(
        container,
        <CalculatorApp initialLanguage="en-US" initialTexts={enUS} hydrating />,
        { onRecoverableError: (error) => problems.push(error) },
      );
    });
    // Unmounted at the end: its print view, loaded when idle, must not render in the next file
    // (the web project shares a worker between files, vite.config.ts).
    onTestFinished(() => act(() => root?.unmount()));

    expect(problems).toEqual([]);
    expect(container.querySelector("h1")).toBe(heading);
    expect(screen.getByLabelText("Cash and Cash Equivalents")).toHaveValue("30000");
    expect(screen.getByLabelText("Total Monthly Expenses")).toHaveValue("6000");
    expect(screen.getByTestId("total-assets")).toHaveTextContent("RM 30,000.00");
    expect(screen.getByTestId("value-basicLiquidityRatio")).toHaveTextContent("5.0 months");
  });
});

describe("the inline script's language", () => {
  const options: EarlyOptions = {
    prerendered: "en-US",
    storageKey: LANGUAGE_STORAGE_KEY,
    htmlLang: HTML_LANG,
    texts: { "cn-ZH": "/assets/calculator-zh.js" },
  };
  const cases: [string | null, string[]][] = [
    [null, ["en-US"]],
    [null, ["zh-CN"]],
    [null, ["zh-TW", "en"]],
    [null, ["fr-FR", "zh-Hans-CN"]],
    [null, ["en-GB", "zh-CN"]],
    [null, ["fr", "de"]],
    [null, []],
    ["cn-ZH", ["en-US"]],
    ["en-US", ["zh-CN"]],
    ["klingon", ["zh"]],
  ];

  it.each(cases)("agrees with the page's rule (stored %s, browser %j)", (stored, browser) => {
    if (stored) localStorage.setItem(LANGUAGE_STORAGE_KEY, stored);
    vi.spyOn(navigator, "languages", "get").mockReturnValue(browser);
    const expected = pickInitialLanguage(stored, browser);
    expect(earlyLanguage(options, "/")).toBe(expected);

    const root = document.documentElement;
    const preload = document.head.querySelector('link[rel="modulepreload"]');
    if (expected === "en-US") {
      expect(root.hasAttribute(WAIT_ATTRIBUTE)).toBe(false);
      expect(preload).toBeNull();
    } else {
      expect(root.lang).toBe("zh-CN");
      expect(root.hasAttribute(WAIT_ATTRIBUTE)).toBe(true);
      expect(preload?.getAttribute("href")).toBe("/assets/calculator-zh.js");
    }
  });

  it("hides the calculator's HTML on any other path (the console's, where a host sends it)", () => {
    expect(earlyLanguage(options, "/dashboard")).toBe("");
    expect(document.documentElement.hasAttribute(WAIT_ATTRIBUTE)).toBe(true);
  });

  it("runs as inlined: its source alone, without the module around it", async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, "cn-ZH");
    const page = await prerenderCalculator();
    const script = page.earlyScript({ "cn-ZH": "/assets/calculator-zh.js" });
    expect(script).not.toContain("</");
    expect(new Function(`return ${script}`)()).toBe("cn-ZH");
    expect(document.documentElement.hasAttribute(WAIT_ATTRIBUTE)).toBe(true);
  });
});
