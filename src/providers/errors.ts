import { toApiError } from "./api-error";
import { resolveApiError, type ResolvedApiError } from "./error-catalogue";

export {
  ApiError,
  isApiError,
  toApiError,
  UNEXPECTED_ERROR_MESSAGE,
  STATUS_ONLY_MESSAGE,
  type ApiErrorKind,
} from "./api-error";

/**
 * The slice of i18next's `t` the providers need. Both i18next's global `t` and react-i18next's
 * `useTranslation().t` fit, so pages pass theirs and the providers need no React.
 */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The catalogue row's main text in the current language. */
export function translateResolved(resolved: ResolvedApiError, t: Translate): string {
  if (!resolved.key) return resolved.text;
  return t(resolved.key, { ...resolved.values, defaultValue: resolved.text });
}

/**
 * A failure as a sentence for staff, in the current language: a stable code through
 * `errors:codes.<CODE>`, a catalogued server message through its key, a permission refusal with
 * its target kept, otherwise the server's own text.
 */
export function translateApiError(error: unknown, t: Translate): string {
  return translateResolved(resolveApiError(toApiError(error)), t);
}
