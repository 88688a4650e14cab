/** A stand-in for Google's reCAPTCHA script: browser tests never reach the internet. */
import type { Page } from "@playwright/test";

export const CAPTCHA_TOKEN = "e2e-captcha-token";

/**
 * Stands in for https://www.google.com/recaptcha/api.js: defines `window.grecaptcha` as
 * react-google-recaptcha uses it (render with a callback, reset, getResponse, execute), draws
 * a checkbox-like button that "solves" the check, then calls the `onload` callback named in the
 * script's URL, after the script has finished loading, as Google's does.
 */
export const RECAPTCHA_STAND_IN = `(() => {
  const onload = new URL(document.currentScript.src).searchParams.get("onload");
  window.grecaptcha = {
    render(container, options) {
      const box = document.createElement("button");
      box.type = "button";
      box.textContent = "I'm not a robot";
      box.addEventListener("click", () => {
        box.textContent = "Verified";
        options.callback(${JSON.stringify(CAPTCHA_TOKEN)});
      });
      container.appendChild(box);
      return 0;
    },
    reset() {},
    getResponse() { return ""; },
    execute() {},
  };
  setTimeout(() => window[onload] && window[onload](), 0);
})();`;

/** Serves the stand-in wherever the page asks Google for reCAPTCHA. */
export function standInRecaptcha(page: Page) {
  return page.route("https://www.google.com/recaptcha/**", (route) =>
    route.fulfill({ contentType: "text/javascript", body: RECAPTCHA_STAND_IN }),
  );
}
