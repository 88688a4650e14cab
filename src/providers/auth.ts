import type { AuthActionResponse, AuthProvider, CheckResponse } from "@refinedev/core";
import i18next from "i18next";

import { toApiError, type ApiError } from "./api-error";
import type { AdminDto, LoginResponse, SignedIn } from "./api-types";
import {
  clearCurrentAdmin,
  getCurrentAdmin,
  loadCurrentAdmin,
  setCurrentAdmin,
} from "./current-admin";
import { handleApiError, notifyError } from "./error-handler";
import { translateResolved, type Translate } from "./errors";
import { http } from "./http";
import { changeLanguage, currentLanguage } from "./i18n";
import { setSignedOutForInactivity } from "./idle";
import {
  describePasskeyFailure,
  isPasskeyCeremonyError,
  signInAssertion,
  signInWithPasskey,
} from "./passkey";
import { getSecondFactor, setSecondFactor } from "./second-factor";
import { clearToken, getToken, setToken } from "./session";
import type { CodeMethod } from "../shared/schemas/auth";

export const LOGIN_PATH = "/login";
export const HOME_PATH = "/dashboard";
export const LOGIN_API_PATH = "/api/auth/login";
export const LOGOUT_API_PATH = "/api/auth/logout";
export const SECOND_FACTOR_API_PATH = "/api/auth/login/second-factor";

export interface LoginCredentials {
  email: string;
  password: string;
}

/**
 * The sign-in's second step for the ticket the password step left (second-factor.ts): a code, or
 * a passkey (the ceremony runs in the provider).
 */
export type SecondFactorProof = { method: CodeMethod; code: string } | { method: "passkey" };

/** A sign-in with a passkey alone, no password. */
export interface PasskeySignIn {
  passkey: true;
}

/** What the login page hands `useLogin`: the password step, the second step, or a passkey alone. */
export type LoginVariables = LoginCredentials | SecondFactorProof | PasskeySignIn;

/** Whether the variables are a step the login page says a refusal of itself (not the password). */
export function isProofStep(variables: LoginVariables): boolean {
  return "method" in variables || "passkey" in variables;
}

/**
 * A refused login, shaped for Refine's login notification (`name` is its title, `message` its
 * text). `bannedEmail` is set for a banned account so the login page can open the
 * `Account banned from login` dialog with the contact address.
 */
export class LoginError extends Error {
  readonly apiError: ApiError;
  readonly bannedEmail?: string;

  constructor(title: string, message: string, apiError: ApiError, bannedEmail?: string) {
    super(message);
    this.name = title;
    this.apiError = apiError;
    this.bannedEmail = bannedEmail;
  }
}

export function isLoginError(value: unknown): value is LoginError {
  return value instanceof LoginError;
}

const translate: Translate = (key, options) => String(i18next.t(key, options));

/**
 * The central handler shows why the login was refused (the Wrong password text, the banned
 * dialog, Fail to fetch data); the returned error is for Refine, whose own login toast the
 * console's notification provider leaves out so the refusal is said once.
 */
function loginFailure(error: unknown): AuthActionResponse {
  const described = handleApiError(error);
  if (described.dialog) {
    const { title, content, email } = described.dialog;
    return { success: false, error: new LoginError(title, content, described.error, email) };
  }
  const title = translate("errors:login.failed");
  const message = translateResolved(described.resolved, translate);
  // A coded refusal (RATE_LIMITED, …) is the form's to explain, and the login form is this one.
  if (described.effect === "silent" && described.error.kind === "coded") {
    notifyError({
      key: `login:${described.error.code ?? ""}`,
      type: "error",
      message: title,
      description: message,
    });
  }
  return { success: false, error: new LoginError(title, message, described.error) };
}

function permissionsOf(admin: AdminDto) {
  return { permissions: admin.permissions, isSuperAdmin: admin.isSuperAdmin };
}

/** The cached administrator, else one fetch; null without a session or when the fetch fails. */
async function adminOrNull(): Promise<AdminDto | null> {
  const cached = getCurrentAdmin();
  if (cached) return cached;
  if (!getToken()) return null;
  try {
    return await loadCurrentAdmin();
  } catch {
    return null;
  }
}

/** Signed in, by a password alone or with its second factor. */
async function signedIn({ token, admin }: SignedIn): Promise<AuthActionResponse> {
  setSecondFactor(null);
  setSignedOutForInactivity(false);
  setToken(token);
  setCurrentAdmin(admin);
  // The account's saved language applies from the moment its administrator signs in.
  const saved = admin.language;
  if (saved !== null && saved !== currentLanguage()) await changeLanguage(saved);
  return { success: true, redirectTo: HOME_PATH };
}

/**
 * A refusal of a step the login page says itself (the second step, a passkey alone): its text is
 * returned, not toasted. A cancelled passkey prompt is no failure of the server's.
 */
function proofFailure(error: unknown): { message: string; apiError: ApiError } {
  const apiError = toApiError(error);
  if (!isPasskeyCeremonyError(error)) handleApiError(apiError);
  return { message: describePasskeyFailure(error, translate), apiError };
}

/**
 * The second step. Its refusals are said on the step itself (the page shows the returned error's
 * text), not by a toast; a ticket that expired ends the step, back to the password.
 */
async function proveSecondFactor(proof: SecondFactorProof): Promise<AuthActionResponse> {
  const ticket = getSecondFactor()?.ticket;
  try {
    if (!ticket) throw new Error("No sign-in waits for a second factor");
    const body =
      proof.method === "passkey"
        ? { ticket, method: proof.method, credential: await signInAssertion(ticket) }
        : { ticket, method: proof.method, code: proof.code };
    const { data } = await http.post<SignedIn>(SECOND_FACTOR_API_PATH, body);
    return await signedIn(data);
  } catch (error) {
    const { message, apiError } = proofFailure(error);
    if (apiError.code === "LOGIN_TICKET_EXPIRED" || !ticket) setSecondFactor(null);
    const title = translate("errors:login.failed");
    return { success: false, error: new LoginError(title, message, apiError) };
  }
}

/** A passkey alone: signed in as by a password, or the refusal for the login page to say. */
async function provePasskeyAlone(): Promise<AuthActionResponse> {
  try {
    return await signedIn(await signInWithPasskey());
  } catch (error) {
    const { message, apiError } = proofFailure(error);
    const title = translate("errors:login.failed");
    return { success: false, error: new LoginError(title, message, apiError) };
  }
}

export const authProvider: AuthProvider = {
  /**
   * The password step answers a token, or (the administrator has an authenticator app) a ticket
   * for the code step: kept in second-factor.ts, and `success: false` without an error, so Refine
   * neither redirects nor complains while the login page asks for the code.
   */
  login: async (variables: LoginVariables) => {
    if ("method" in variables) return proveSecondFactor(variables);
    if ("passkey" in variables) return provePasskeyAlone();
    const { email, password } = variables;
    try {
      const { data } = await http.post<LoginResponse>(LOGIN_API_PATH, { email, password });
      if ("secondFactor" in data) {
        setSecondFactor(data.secondFactor);
        return { success: false };
      }
      return await signedIn(data);
    } catch (error) {
      return loginFailure(error);
    }
  },

  /**
   * The server revokes the token first (`POST /api/auth/logout`), so a copy of it left anywhere
   * no longer works; the browser forgets it whatever the answer (offline, already expired).
   */
  logout: async () => {
    if (getToken()) await http.post(LOGOUT_API_PATH).catch(() => undefined);
    clearToken();
    clearCurrentAdmin();
    return { success: true, redirectTo: LOGIN_PATH };
  },

  /**
   * docs/backoffice.md: with a token, `GET /api/account/admin` decides. An error status ends the
   * session: the handler says why (Login Expired, …), clears the token and reloads, which lands
   * on login. No answer at all (server down) is said (Fail to fetch data) but keeps the token, so
   * the session survives the outage.
   */
  check: async (): Promise<CheckResponse> => {
    if (!getToken()) {
      clearCurrentAdmin();
      return { authenticated: false, redirectTo: LOGIN_PATH };
    }
    try {
      await loadCurrentAdmin();
      return { authenticated: true };
    } catch (error) {
      const apiError = toApiError(error);
      const endSession = apiError.statusCode !== undefined;
      handleApiError(apiError, {}, { endSession });
      return { authenticated: false, redirectTo: LOGIN_PATH, error: apiError };
    }
  },

  getIdentity: async () => adminOrNull(),

  getPermissions: async () => {
    const admin = await adminOrNull();
    return admin ? permissionsOf(admin) : null;
  },

  /**
   * Every failed data call comes here. The catalogue decides: a dead session is cleared and the
   * page reloads to login; a permission refusal or any other failure leaves the session alone.
   */
  onError: async (error: unknown) => {
    const { error: apiError } = handleApiError(error);
    return { error: apiError };
  },
};
