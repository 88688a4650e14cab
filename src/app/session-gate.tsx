import { useIsAuthenticated } from "@refinedev/core";
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";

/**
 * docs/backoffice.md: while the session is checked the screen shows exactly this (and, after it,
 * while the signed-in console's chunk arrives).
 */
export const CHECKING_SESSION = <div>Loading...</div>;

interface SessionGateProps {
  /** What a signed-in administrator sees. */
  signedIn: ReactNode;
  /** What everyone else sees. */
  signedOut: ReactNode;
}

/**
 * Shows `Loading...` only until the first session check answers. Refine's `Authenticated` shows
 * its loading content on every background re-check (window focus, a new observer), which
 * unmounts the whole console and throws away whatever the administrator was typing.
 */
export function SessionGate({ signedIn, signedOut }: SessionGateProps) {
  const { data, isPending } = useIsAuthenticated();
  if (isPending || !data) return CHECKING_SESSION;
  return data.authenticated ? signedIn : signedOut;
}

/** To the login page, remembering where the administrator was going (Refine's `to`). */
export function RedirectToLogin() {
  const { pathname, search } = useLocation();
  const to = `${pathname}${search}`;
  const query = to === "/" || to.startsWith("/login") ? "" : `?to=${encodeURIComponent(to)}`;
  return <Navigate to={`/login${query}`} replace />;
}

/** From the login page into the console: where they were going, else the dashboard. */
export function RedirectIntoConsole() {
  const { search } = useLocation();
  const to = new URLSearchParams(search).get("to");
  // Only a path inside this app; never an absolute URL handed in through the query string.
  const target = to && to.startsWith("/") && !to.startsWith("//") ? to : "/dashboard";
  return <Navigate to={target} replace />;
}
