import { useDataProvider } from "@refinedev/core";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { CHECK_EMAIL_PATH } from "./paths";

/** How long typing must pause before the server is asked (the form item debounces). */
export const EMAIL_CHECK_DEBOUNCE_MS = 400;

const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * An antd validator asking `POST /user-mgmt/check-email-available` whether an address is free
 * (`excludeId`: the administrator being edited keeps their own). Malformed addresses are left to
 * the `type: "email"` rule, and a check that fails to get an answer does not block the form:
 * the server checks again when it is saved.
 */
export function useEmailAvailabilityValidator(excludeId?: number) {
  const { t } = useTranslation("admin");
  const getDataProvider = useDataProvider();

  return useCallback(
    async (_rule: unknown, value: unknown) => {
      if (typeof value !== "string" || !LOOKS_LIKE_EMAIL.test(value.trim())) return;
      let available: unknown;
      try {
        const { custom } = getDataProvider();
        if (!custom) return;
        const response = await custom<{ available: boolean }>({
          url: CHECK_EMAIL_PATH,
          method: "post",
          payload: {
            email: value.trim(),
            ...(excludeId !== undefined && { exclude_id: excludeId }),
          },
        });
        available = response.data.available;
      } catch {
        return;
      }
      if (available === false) throw new Error(t("form.emailTaken"));
    },
    [getDataProvider, excludeId, t],
  );
}
