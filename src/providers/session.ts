import Cookies from "js-cookie";

/**
 * The administrator's session token. It lives in the `jwt` cookie (sent as the Authorization
 * header; scoped to the parent domain in production so sibling apps share the session) and is
 * mirrored in localStorage `jwt`.
 */
export const TOKEN_NAME = "jwt";

type CookieAttributes = Cookies.CookieAttributes;

function cookieAttributes(): CookieAttributes {
  const attributes: CookieAttributes = {
    path: "/",
    sameSite: "lax",
    secure: typeof window !== "undefined" && window.location.protocol === "https:",
  };
  // Only production builds share the cookie with the parent domain: in development the page runs
  // on localhost, where a foreign domain attribute would make the browser drop the cookie.
  const domain = import.meta.env.VITE_COOKIE_DOMAIN;
  if (import.meta.env.PROD && domain) attributes.domain = domain;
  return attributes;
}

/** The JWT's own `exp`, so the cookie lives as long as the token and no longer. */
function tokenExpiry(token: string): Date | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === "number" ? new Date(exp * 1000) : undefined;
  } catch {
    return undefined;
  }
}

function readStorage(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_NAME) ?? undefined;
  } catch {
    // Storage can be disabled (privacy mode); the cookie alone still carries the session.
    return undefined;
  }
}

/** The token as stored: the cookie first, the localStorage mirror otherwise. */
export function getToken(): string | undefined {
  return Cookies.get(TOKEN_NAME) || readStorage() || undefined;
}

export function setToken(token: string): void {
  Cookies.set(TOKEN_NAME, token, { ...cookieAttributes(), expires: tokenExpiry(token) });
  try {
    localStorage.setItem(TOKEN_NAME, token);
  } catch {
    // See readStorage: the cookie is enough.
  }
}

/** Removes the cookie and the localStorage entry (docs/errors.md, "session ended"). */
export function clearToken(): void {
  const attributes = cookieAttributes();
  Cookies.remove(TOKEN_NAME, attributes);
  // A cookie set before the domain was configured is host-only; remove that one as well.
  if (attributes.domain) Cookies.remove(TOKEN_NAME, { path: "/" });
  try {
    localStorage.removeItem(TOKEN_NAME);
  } catch {
    // Nothing stored when storage is unavailable.
  }
}
