/**
 * The `Email Me My Report` dialog against a mocked report endpoint (msw): its three validation
 * messages in both languages, what it posts, and how it explains each answer of the server.
 */
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import enUS from "../../locales/en-US/calculator.json";
import cnZH from "../../locales/cn-ZH/calculator.json";
import { CalculatorApp } from "../../src/calculator/calculator-app";
import { createTranslator, type Texts } from "../../src/calculator/i18n";
import { ReportDialog } from "../../src/calculator/report-dialog";
import { EMPTY_FORM, INPUTS_STORAGE_KEY } from "../../src/calculator/storage";
import { TranslationContext } from "../../src/calculator/translation";
import type { Language } from "../../src/shared/language";

// Google's widget cannot load in jsdom: a stand-in with the same props that "solves" on click.
vi.mock("react-google-recaptcha", () => ({
  default: ({ onChange }: { onChange: (token: string | null) => void }) => (
    <button type="button" onClick={() => onChange("captcha-token-1")}>
      I&apos;m not a robot
    </button>
  ),
}));

const REPORT_URL = `${window.location.origin}/v1/api/calculator/report`;
const server = setupServer();
const posted: unknown[] = [];
server.events.on("request:start", async ({ request }) => {
  posted.push(await request.clone().json());
});
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  posted.length = 0;
  localStorage.clear();
});
afterAll(() => server.close());

const TEXTS: Record<Language, Texts> = { "en-US": enUS, "cn-ZH": cnZH };

function withLanguage(language: Language, children: ReactNode) {
  const value = { language, t: createTranslator(TEXTS[language]), switchLanguage: () => {} };
  return <TranslationContext value={value}>{children}</TranslationContext>;
}

const FORM = { ...EMPTY_FORM, name: "Aisyah", cashAndCashEquivalents: "30000" };

function openDialog(language: Language, siteKey = "site-key", onClose = () => {}) {
  render(withLanguage(language, <ReportDialog form={FORM} siteKey={siteKey} onClose={onClose} />));
  return screen.getByRole("dialog");
}

describe("the report dialog's validation", () => {
  it.each<[Language, string, string, string, string, string]>([
    [
      "en-US",
      "Ok",
      "Email",
      "Email is required",
      "Please insert valid email address",
      "Recaptcha is required",
    ],
    ["cn-ZH", "确定", "电子邮件", "请输入电子邮件", "请输入有效的电子邮件地址", "请完成人机验证"],
  ])(
    "in %s asks for the e-mail, a valid address and the captcha",
    async (language, ok, email, required, invalid, captcha) => {
      const user = userEvent.setup();
      const dialog = openDialog(language);
      await screen.findByRole("button", { name: "I'm not a robot" });

      await user.click(within(dialog).getByRole("button", { name: ok }));
      expect(await within(dialog).findByText(required)).toBeVisible();
      expect(within(dialog).getByText(captcha)).toBeVisible();
      expect(within(dialog).getByLabelText(email)).toHaveAttribute("aria-invalid", "true");

      await user.type(within(dialog).getByLabelText(email), "aisyah@example");
      expect(within(dialog).getByText(invalid)).toBeVisible();
      expect(within(dialog).queryByText(required)).toBeNull();

      await user.type(within(dialog).getByLabelText(email), ".com");
      await user.click(screen.getByRole("button", { name: "I'm not a robot" }));
      expect(within(dialog).queryByText(invalid)).toBeNull();
      expect(within(dialog).queryByText(captcha)).toBeNull();
      expect(posted).toEqual([]);
    },
  );

  it("says the captcha is off when no site key is configured, and sends without a token", async () => {
    server.use(http.post(REPORT_URL, () => HttpResponse.json({ status: "sent" }, { status: 202 })));
    const user = userEvent.setup();
    const dialog = openDialog("en-US", "");
    expect(within(dialog).getByText(/no reCAPTCHA site key is configured/)).toBeVisible();
    await user.type(within(dialog).getByLabelText("Email"), "aisyah@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    expect(await within(dialog).findByText(/on its way to aisyah@example.com/)).toBeVisible();
    expect(posted).toEqual([
      expect.objectContaining({ captchaToken: null, email: "aisyah@example.com" }),
    ]);
  });
});

describe("sending the report", () => {
  async function fillAndSend(language: Language = "en-US") {
    const user = userEvent.setup();
    const dialog = openDialog(language);
    await user.type(
      within(dialog).getByLabelText(language === "en-US" ? "Email" : "电子邮件"),
      " aisyah@example.com ",
    );
    await user.click(await screen.findByRole("button", { name: "I'm not a robot" }));
    await user.click(
      within(dialog).getByRole("button", { name: language === "en-US" ? "Ok" : "确定" }),
    );
    return { user, dialog };
  }

  it("posts what the visitor typed, the address, the token and the language", async () => {
    server.use(http.post(REPORT_URL, () => HttpResponse.json({ status: "sent" }, { status: 202 })));
    const { dialog } = await fillAndSend("cn-ZH");
    expect(
      await within(dialog).findByText("您的报告正在发送到 aisyah@example.com。"),
    ).toBeVisible();
    expect(posted).toEqual([
      {
        inputs: FORM,
        email: "aisyah@example.com",
        captchaToken: "captcha-token-1",
        language: "cn-ZH",
      },
    ]);
  });

  it.each<[string, () => Response, string]>([
    [
      "a field the server refused",
      () =>
        HttpResponse.json(
          {
            code: "VALIDATION_ERROR",
            message: "Invalid inputs.carLoanBalance",
            data: { issues: [{ path: "inputs.carLoanBalance", message: "negative" }] },
          },
          { status: 400 },
        ),
      "The report could not be sent: Car Loan Balance is not valid.",
    ],
    [
      "a failed captcha",
      () => HttpResponse.json({ code: "CAPTCHA_FAILED", message: "no" }, { status: 400 }),
      "The security check failed or expired. Please complete it again.",
    ],
    [
      "too many requests",
      () => HttpResponse.json({ code: "RATE_LIMITED", message: "slow down" }, { status: 429 }),
      "Too many reports were requested. Please wait a while and try again.",
    ],
    [
      "a mail server that refused",
      () => HttpResponse.json({ code: "MAIL_FAILED", message: "smtp" }, { status: 502 }),
      "The e-mail could not be sent just now. Please try again later.",
    ],
    [
      "a server that cannot be reached",
      () => HttpResponse.error(),
      "The server could not be reached. Check your connection and try again.",
    ],
    [
      "an answer it does not know",
      () => new HttpResponse("oops", { status: 500 }),
      "Something went wrong and the report was not sent. Please try again.",
    ],
  ])("explains %s", async (_case, answer, message) => {
    server.use(http.post(REPORT_URL, answer));
    const { dialog } = await fillAndSend();
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(message);
  });

  it("marks the address when the server says it is not valid", async () => {
    server.use(
      http.post(REPORT_URL, () =>
        HttpResponse.json(
          {
            code: "VALIDATION_ERROR",
            message: "Invalid email",
            data: { issues: [{ path: ["email"], message: "Invalid email" }] },
          },
          { status: 400 },
        ),
      ),
    );
    const { dialog } = await fillAndSend();
    expect(await within(dialog).findByText("Please insert valid email address")).toBeVisible();
  });

  it("asks for a new captcha after the server rejected the token", async () => {
    server.use(
      http.post(REPORT_URL, () =>
        HttpResponse.json({ code: "CAPTCHA_FAILED", message: "no" }, { status: 400 }),
      ),
    );
    const { user, dialog } = await fillAndSend();
    await within(dialog).findByRole("alert");
    await user.click(within(dialog).getByRole("button", { name: "Ok" }));
    expect(await within(dialog).findByText("Recaptcha is required")).toBeVisible();
    expect(posted).toHaveLength(1);
  });

  it("does not post figures the form marks as invalid", async () => {
    const user = userEvent.setup();
    render(
      withLanguage(
        "en-US",
        <ReportDialog form={{ ...FORM, others: "-5" }} siteKey="" onClose={() => {}} />,
      ),
    );
    await user.type(screen.getByLabelText("Email"), "aisyah@example.com");
    await user.click(screen.getByRole("button", { name: "Ok" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Some figures are not valid. Correct the fields marked in the form first.",
    );
    expect(posted).toEqual([]);
  });
});

describe("the dialog from the page", () => {
  it("opens from the results, closes on Escape and gives focus back", async () => {
    localStorage.setItem(INPUTS_STORAGE_KEY, JSON.stringify(FORM));
    const user = userEvent.setup();
    render(<CalculatorApp initialLanguage="en-US" initialTexts={enUS} />);
    const opener = screen.getByRole("button", { name: "Email Me My Report" });
    await user.click(opener);
    // The dialog is a chunk of its own, fetched on demand.
    const dialog = await screen.findByRole("dialog", { name: "Email Me My Report" });
    await waitFor(() => expect(within(dialog).getByLabelText("Email")).toHaveFocus());

    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(opener).toHaveFocus();
  });

  it("keeps Tab inside the dialog", async () => {
    const user = userEvent.setup();
    render(<CalculatorApp initialLanguage="en-US" initialTexts={enUS} />);
    await user.click(screen.getByRole("button", { name: "Email Me My Report" }));
    const dialog = await screen.findByRole("dialog");
    await waitFor(() => expect(within(dialog).getByLabelText("Email")).toHaveFocus());
    // Email → Cancel → Ok → (wraps) Email, and backwards.
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Ok" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByLabelText("Email")).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(dialog).getByRole("button", { name: "Ok" })).toHaveFocus();

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
