/**
 * The calculator page as a visitor uses it: the form, results that follow the typing, refused
 * figures, figures kept on the device, and the language switch.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import enUS from "../../locales/en-US/calculator.json";
import { CalculatorApp } from "../../src/calculator/calculator-app";
import { INPUTS_STORAGE_KEY } from "../../src/calculator/storage";

afterEach(() => localStorage.clear());

function renderPage() {
  const user = userEvent.setup();
  render(<CalculatorApp initialLanguage="en-US" initialTexts={enUS} />);
  return user;
}

/** The card of one ratio, by its name. */
const ratioCard = (name: string) => screen.getByRole("listitem", { name });

describe("the calculator page", () => {
  it("has its title, description, input card, sections and help texts", () => {
    renderPage();
    expect(document.title).toBe("Financial Goal Calculator");
    expect(document.documentElement.lang).toBe("en");
    expect(
      screen.getByRole("heading", { level: 1, name: "Financial Goal Calculator" }),
    ).toBeVisible();
    expect(screen.getByRole("heading", { name: "Financial Ratios Input" })).toBeVisible();
    for (const section of ["Assets", "Liabilities", "Cashflow"]) {
      expect(screen.getByRole("group", { name: section })).toBeVisible();
    }
    expect(screen.getByLabelText("Monthly Total Inflow")).toHaveAccessibleDescription(
      "Take-home income after tax and provident fund.",
    );
    for (const group of ["Cashflow Health", "Debt Health", "Asset Health"]) {
      expect(screen.getByRole("heading", { name: group })).toBeVisible();
    }
    expect(screen.getAllByRole("listitem")).toHaveLength(10);
    expect(screen.getByText(/stay on this device/)).toBeVisible();
  });

  it("updates the ratios as the visitor types", async () => {
    const user = renderPage();
    await user.type(screen.getByLabelText("Cash and Cash Equivalents"), "30000");
    await user.type(screen.getByLabelText("Total Monthly Expenses"), "6000");
    await user.type(screen.getByLabelText("Monthly Total Inflow"), "10000");
    await user.type(screen.getByLabelText("Monthly Mortgage Loan Repayment"), "3500");

    const liquidity = ratioCard("Basic Liquidity Ratio");
    expect(within(liquidity).getByText("5.0 months")).toBeVisible();
    expect(within(liquidity).getByText("Optimum: 3 – 6 months")).toBeVisible();
    expect(within(liquidity).getByText("Optimum", { selector: ".calc-band" })).toBeVisible();

    // Exactly on the edge: 35 % is still optimum.
    const debtService = ratioCard("Debt Service Ratio");
    expect(within(debtService).getByText("35.0%")).toBeVisible();
    expect(within(debtService).getByText("Optimum", { selector: ".calc-band" })).toBeVisible();

    await user.type(screen.getByLabelText("Monthly Mortgage Loan Repayment"), "0");
    expect(within(debtService).getByText("350.0%")).toBeVisible();
    expect(within(debtService).getByText("Adverse", { selector: ".calc-band" })).toBeVisible();
  });

  it("explains ratios that have no figure", async () => {
    const user = renderPage();
    expect(
      within(ratioCard("Progress Towards Target Net Worth")).getByText("Set a target"),
    ).toBeVisible();
    await user.type(screen.getByLabelText("Cash and Cash Equivalents"), "100");
    const liquidity = ratioCard("Basic Liquidity Ratio");
    expect(within(liquidity).getByText("∞ Unlimited")).toBeVisible();
    expect(within(liquidity).getByText("No monthly expenses entered.")).toBeVisible();

    await user.type(screen.getByLabelText("Car Loan Balance"), "250");
    const networth = ratioCard("Net Worth");
    expect(within(networth).getByText("−RM 150.00")).toHaveClass("negative");
    expect(within(ratioCard("Solvency Ratio")).getByText(/^Insolvent/)).toBeVisible();
  });

  it.each([
    ["-5", "Enter an amount of zero or more; negative amounts are not allowed."],
    ["abc", "Enter a number, such as 1234.56."],
    ["1.234", "Use at most two decimal places (whole sen)."],
  ])("refuses %j with a message tied to the field", async (text, message) => {
    const user = renderPage();
    const field = screen.getByLabelText("Others");
    await user.type(field, text);
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getByText(/ratios leave them out/)).toBeVisible();
  });

  it("keeps the figures on the device and clears them on request", async () => {
    const user = renderPage();
    await user.type(screen.getByLabelText(/^Name/), "Aisyah");
    await user.type(screen.getByLabelText("Others"), "1,500.25");
    expect(JSON.parse(localStorage.getItem(INPUTS_STORAGE_KEY) ?? "{}")).toMatchObject({
      name: "Aisyah",
      others: "1,500.25",
    });
    expect(screen.getByTestId("total-assets")).toHaveTextContent("RM 1,500.25");

    await user.click(screen.getByRole("button", { name: "Clear all figures" }));
    expect(screen.getByLabelText("Others")).toHaveValue("");
    expect(localStorage.getItem(INPUTS_STORAGE_KEY)).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("All figures cleared.");
  });

  it("starts from the figures saved on an earlier visit", () => {
    localStorage.setItem(
      INPUTS_STORAGE_KEY,
      JSON.stringify({ others: "2000", carLoanBalance: 500, unknown: "x" }),
    );
    renderPage();
    expect(screen.getByLabelText("Others")).toHaveValue("2000");
    expect(screen.getByLabelText("Car Loan Balance")).toHaveValue("");
    expect(screen.getByTestId("total-assets")).toHaveTextContent("RM 2,000.00");
  });

  it("switches to Chinese at once and remembers the choice as the console does", async () => {
    const user = renderPage();
    await user.click(screen.getByRole("button", { name: "中文" }));
    expect(await screen.findByRole("heading", { level: 1, name: "财务目标计算器" })).toBeVisible();
    expect(screen.getByRole("heading", { name: "财务比率输入" })).toBeVisible();
    expect(screen.getByRole("group", { name: "资产" })).toBeVisible();
    expect(screen.getByRole("button", { name: "中文" })).toHaveAttribute("aria-pressed", "true");
    await waitFor(() => expect(document.documentElement.lang).toBe("zh-CN"));
    expect(document.title).toBe("财务目标计算器");
    expect(localStorage.getItem("language")).toBe("cn-ZH");

    await user.click(screen.getByRole("button", { name: "English" }));
    expect(await screen.findByRole("heading", { name: "Financial Ratios Input" })).toBeVisible();
    expect(localStorage.getItem("language")).toBe("en-US");
  });
});
