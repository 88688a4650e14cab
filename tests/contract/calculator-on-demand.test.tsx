/**
 * What the calculator fetches only when it is needed (issue 18): the print view, when the visitor
 * prints, is on the page before the browser's print dialog opens.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import enUS from "../../locales/en-US/calculator.json";
import { CalculatorApp } from "../../src/calculator/calculator-app";
import { INPUTS_STORAGE_KEY } from "../../src/calculator/storage";

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe("the print view", () => {
  it("is not on the page until asked for, and is there when the print dialog opens", async () => {
    localStorage.setItem(INPUTS_STORAGE_KEY, JSON.stringify({ cashAndCashEquivalents: "1200" }));
    const printed: (string | null)[] = [];
    vi.spyOn(window, "print").mockImplementation(() => {
      printed.push(document.querySelector(".calc-print-figures")?.textContent ?? null);
    });
    const user = userEvent.setup();
    render(<CalculatorApp initialLanguage="en-US" initialTexts={enUS} />);
    expect(screen.queryByRole("heading", { name: "Your Figures" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Print" }));
    await waitFor(() => expect(printed).toHaveLength(1));
    expect(printed[0]).toContain("Cash and Cash Equivalents");
    expect(printed[0]).toContain("RM 1,200.00");
  });
});
