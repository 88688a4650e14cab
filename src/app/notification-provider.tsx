import type { NotificationProvider } from "@refinedev/core";
import { App, Button } from "antd";
import i18next from "i18next";
import { FORM_ERROR_KEY_PREFIX } from "./components/notifications";

/**
 * docs/errors.md: one message per failure. Every failed call reaches the central handler (through
 * the auth provider's onError, check or login), which shows the catalogue's message; Refine then
 * opens its own error toast for the same failure. Only a form's toast for a coded error, which
 * the handler leaves to the form, gets through.
 */
function repeatsHandledFailure(type: string, key: string | undefined): boolean {
  return type === "error" && !key?.startsWith(FORM_ERROR_KEY_PREFIX);
}

/**
 * Refine's notifications drawn by antd's `App` notification API (theme, locale, React 19 safe).
 * Written here rather than taken from @refinedev/antd because importing anything from that
 * package's single bundle also pulls in its markdown renderer, ~35 kB gzip the first screen
 * would download for nothing. `message` is the headline, `description` the detail.
 */
export function useConsoleNotificationProvider(): NotificationProvider {
  const { notification } = App.useApp();
  return {
    open: ({ key, message, description, type, cancelMutation, undoableTimeout }) => {
      if (repeatsHandledFailure(type, key)) return;
      if (type === "progress") {
        // Undoable mutations: the change is applied when the notification times out.
        notification.info({
          key,
          message,
          description:
            description ??
            i18next.t("common:notifications.undoable", {
              seconds: undoableTimeout ?? 0,
            }),
          duration: undoableTimeout ?? 5,
          actions: (
            <Button
              size="small"
              onClick={() => {
                cancelMutation?.();
                notification.destroy(key ?? "");
              }}
            >
              {i18next.t("common:buttons.undo")}
            </Button>
          ),
        });
        return;
      }
      notification[type]({ key, message, description });
    },
    close: (key) => notification.destroy(key),
  };
}
