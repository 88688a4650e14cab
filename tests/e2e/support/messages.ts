/**
 * Every toast and dialog the console shows, as staff read them, kept across page loads. A session
 * that ends shows its message for 500 ms before the page reloads to login; reading the screen at
 * the right moment would be a race, so the page itself writes down each message as it appears.
 */
import type { Page } from "@playwright/test";

const STORE = "e2e-shown-messages";

/** Starts the record (before the first navigation); it lives in this tab's session storage. */
export async function recordMessages(page: Page): Promise<void> {
  await page.addInitScript((store) => {
    const seen = new WeakSet<Element>();
    const text = (root: Element, selector: string) =>
      (root.querySelector(selector)?.textContent ?? "").trim();
    const record = () => {
      const found = document.querySelectorAll(".ant-notification-notice, .ant-modal-confirm");
      for (const element of Array.from(found)) {
        if (seen.has(element)) continue;
        seen.add(element);
        const isDialog = element.classList.contains("ant-modal-confirm");
        const title = isDialog
          ? text(element, ".ant-modal-confirm-title")
          : text(element, ".ant-notification-notice-message");
        const detail = isDialog
          ? text(element, ".ant-modal-confirm-content")
          : text(element, ".ant-notification-notice-description");
        const shown = JSON.parse(sessionStorage.getItem(store) ?? "[]") as unknown[];
        shown.push({ kind: isDialog ? "dialog" : "toast", title, detail });
        sessionStorage.setItem(store, JSON.stringify(shown));
      }
    };
    new MutationObserver(record).observe(document, { childList: true, subtree: true });
  }, STORE);
}

export interface ShownMessage {
  kind: "toast" | "dialog";
  title: string;
  detail: string;
}

/** The messages shown so far in this tab, oldest first. */
export async function shownMessages(page: Page): Promise<ShownMessage[]> {
  return page.evaluate(
    (store) => JSON.parse(sessionStorage.getItem(store) ?? "[]") as ShownMessage[],
    STORE,
  );
}

/** Forgets what was shown, so the next step's messages stand alone. */
export async function forgetMessages(page: Page): Promise<void> {
  await page.evaluate((store) => sessionStorage.removeItem(store), STORE);
}
