import { App } from "antd";
import i18next from "i18next";
import { useEffect } from "react";
import { configureErrorHandling } from "../providers/error-handler";

/**
 * Gives the providers' central error handler somewhere to draw: antd's toasts and dialogs only
 * reach the theme and locale through `App.useApp()`, which plain modules cannot call.
 */
export function ErrorHandlingBridge() {
  const { notification, modal } = App.useApp();

  useEffect(
    () =>
      configureErrorHandling({
        t: (key, options) => i18next.t(key, options),
        notify: ({ key, message, description }) =>
          notification.error({ key, message, description }),
        showBannedDialog: ({ title, content }) => {
          modal.error({ title, content });
        },
      }),
    [notification, modal],
  );

  return null;
}
