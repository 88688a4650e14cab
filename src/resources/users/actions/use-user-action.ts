import { useCustomMutation, type OpenNotificationParams } from "@refinedev/core";
import { useTranslation } from "react-i18next";
import { errorCodeOf, FORM_ERROR_KEY_PREFIX } from "../../../app/components/notifications";
import { actionErrorText, type UserActionRequest } from "./requests";

/**
 * Sends one user action. Coded refusals (NO_EMAIL, ALREADY_IN_STATE, …) are explained here,
 * translated; every other failure is shown once by the central error handler.
 */
export function useUserAction<TData = unknown>() {
  const { t } = useTranslation("users");
  const { mutateAsync, mutation } = useCustomMutation<TData & Record<string, unknown>>();

  const run = async (
    request: UserActionRequest,
    texts: { success: string | ((data: TData) => string); failed: string },
  ): Promise<TData | undefined> => {
    try {
      const { data } = await mutateAsync({
        ...request,
        successNotification: (answer) => ({
          type: "success",
          message:
            typeof texts.success === "function"
              ? texts.success(answer?.data as TData)
              : texts.success,
        }),
        errorNotification: (error): OpenNotificationParams | false => {
          const code = errorCodeOf(error);
          if (code === undefined) return false;
          return {
            key: `${FORM_ERROR_KEY_PREFIX}${code}`,
            type: "error",
            message: texts.failed,
            description: actionErrorText(error, t),
          };
        },
      });
      return data as TData;
    } catch {
      return undefined;
    }
  };
  return { run, pending: mutation.isPending };
}
