import i18next from "i18next";

import { isApiError, toApiError, type ApiError } from "./api-error";
import { clearCurrentAdmin } from "./current-admin";
import {
  RELOAD_DELAY_MS,
  resolveHandledError,
  type ErrorEffect,
  type ResolvedApiError,
} from "./error-catalogue";
import { translateResolved, type Translate } from "./errors";
import { clearToken } from "./session";

/** A toast the shell renders. `key` is stable per text so simultaneous failures show it once. */
export interface ErrorNotice {
  key: string;
  type: "error";
  message: string;
  description?: string;
}

/** The `Account banned from login` dialog. */
export interface BannedDialog {
  title: string;
  content: string;
  email: string;
}

export interface ErrorHandlerDeps {
  t: Translate;
  notify: (notice: ErrorNotice) => void;
  showBannedDialog: (dialog: BannedDialog) => void;
  /** Reloads the page, which without a token lands on login and starts from a clean state. */
  reload: () => void;
  clearSession: () => void;
  schedule: (run: () => void, delayMs: number) => void;
}

export interface DescribedApiError {
  error: ApiError;
  resolved: ResolvedApiError;
  effect: ErrorEffect;
  notice?: ErrorNotice;
  dialog?: BannedDialog;
}

const defaultDeps: ErrorHandlerDeps = {
  t: (key, options) => String(i18next.t(key, options)),
  // The shell supplies its antd-bound renderers through configureErrorHandling; until it does,
  // handling still clears sessions and reloads, it just has nowhere to draw.
  notify: () => undefined,
  showBannedDialog: () => undefined,
  reload: () => window.location.reload(),
  clearSession: () => {
    clearToken();
    clearCurrentAdmin();
  },
  schedule: (run, delayMs) => {
    setTimeout(run, delayMs);
  },
};

let configured: Partial<ErrorHandlerDeps> = {};

/** Dispatched on `window` when the API refuses a call for want of a permission code. */
export const PERMISSION_DENIED_EVENT = "console:permission-denied";

/**
 * Lets the shell plug in its translator, toast and dialog (it owns antd's `App` context, which
 * static helpers cannot reach). Returns a function that restores the previous wiring.
 */
export function configureErrorHandling(deps: Partial<ErrorHandlerDeps>): () => void {
  const previous = configured;
  configured = { ...configured, ...deps };
  return () => {
    configured = previous;
  };
}

/** What the catalogue says about a failure, as texts in the current language. No side effects. */
export function describeApiError(error: unknown, t: Translate): DescribedApiError {
  const apiError = toApiError(error);
  const resolved = resolveHandledError(apiError);
  const text = translateResolved(resolved, t);
  const described: DescribedApiError = { error: apiError, resolved, effect: resolved.effect };
  if (resolved.effect === "bannedDialog") {
    const title = resolved.titleKey ? t(resolved.titleKey) : text;
    described.dialog = { title, content: text, email: resolved.values?.email ?? "" };
  } else if (resolved.effect !== "silent") {
    described.notice = {
      key: resolved.noticeKey ?? resolved.key ?? `text:${resolved.text}`,
      type: "error",
      ...(resolved.titleKey
        ? { message: t(resolved.titleKey), description: text }
        : { message: text }),
    };
  }
  return described;
}

/** Shows one error toast where the handler draws them: for the login form's own coded errors. */
export function notifyError(notice: ErrorNotice): void {
  ({ ...defaultDeps, ...configured }).notify(notice);
}

/**
 * Failures already handled. Refine reports one failed query once per hook watching it, so the
 * same error can arrive twice; its effect (a toast, a reload) must happen once.
 */
const handled = new WeakSet<ApiError>();

/**
 * Failures the view that asked explains where the asker looks (a detail page's "There is no user
 * with ID 999999"): the handler still carries out their effect on the session, but shows no toast
 * beside the page's own message.
 */
const explainedInPlace = new WeakSet<ApiError>();

/** Marks `error` as explained by its view (see explainedInPlace) and gives it back. */
export function explainInPlace<E>(error: E): E {
  if (isApiError(error)) explainedInPlace.add(error);
  return error;
}

/**
 * The central handler (docs/errors.md): looks the failure up in the catalogue and carries out its
 * effect. Refine's authProvider.onError, check and login call it; tests pass their own
 * dependencies. `endSession` ends the session whatever the row (the session check's rule: any
 * error status from `GET /api/account/admin` sends the administrator back to login).
 */
export function handleApiError(
  error: unknown,
  overrides: Partial<ErrorHandlerDeps> = {},
  { endSession = false }: { endSession?: boolean } = {},
): DescribedApiError {
  const deps: ErrorHandlerDeps = { ...defaultDeps, ...configured, ...overrides };
  const described = describeApiError(error, deps.t);
  if (handled.has(described.error)) return described;
  handled.add(described.error);
  // A refusal for want of a code: the administrator's codes may have changed since they were read.
  if (described.resolved.key === "errors:permissionDenied") {
    window.dispatchEvent(new Event(PERMISSION_DENIED_EVENT));
  }
  const reloads = described.effect === "clearTokenAndReload" || endSession;
  if (reloads || described.effect === "bannedDialog") deps.clearSession();
  if (described.notice && !explainedInPlace.has(described.error)) deps.notify(described.notice);
  if (described.dialog) deps.showBannedDialog(described.dialog);
  if (reloads) deps.schedule(deps.reload, RELOAD_DELAY_MS);
  return described;
}
