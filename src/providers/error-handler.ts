import i18next from "i18next";

import { toApiError, type ApiError } from "./api-error";
import { clearCurrentAdmin } from "./current-admin";
import {
  RELOAD_DELAY_MS,
  resolveApiError,
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
  /** Reloads the page; `false` when the caller redirects to login itself (the auth check). */
  reload: (() => void) | false;
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
  const resolved = resolveApiError(apiError);
  const text = translateResolved(resolved, t);
  const described: DescribedApiError = { error: apiError, resolved, effect: resolved.effect };
  if (resolved.effect === "bannedDialog") {
    const title = resolved.titleKey ? t(resolved.titleKey) : text;
    described.dialog = { title, content: text, email: resolved.values?.email ?? "" };
  } else if (resolved.effect !== "silent") {
    described.notice = {
      key: resolved.key ?? `text:${resolved.text}`,
      type: "error",
      ...(resolved.titleKey
        ? { message: t(resolved.titleKey), description: text }
        : { message: text }),
    };
  }
  return described;
}

/**
 * The central handler (errors.md): looks the failure up in the catalogue and carries out its
 * effect. Refine's authProvider.onError and check call it; tests pass their own dependencies.
 */
export function handleApiError(
  error: unknown,
  overrides: Partial<ErrorHandlerDeps> = {},
): DescribedApiError {
  const deps: ErrorHandlerDeps = { ...defaultDeps, ...configured, ...overrides };
  const described = describeApiError(error, deps.t);
  if (described.effect === "clearTokenAndReload" || described.effect === "bannedDialog") {
    deps.clearSession();
  }
  if (described.notice) deps.notify(described.notice);
  if (described.dialog) deps.showBannedDialog(described.dialog);
  const { reload } = deps;
  if (described.effect === "clearTokenAndReload" && reload) {
    deps.schedule(reload, RELOAD_DELAY_MS);
  }
  return described;
}
