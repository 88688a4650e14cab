import Cookies from "js-cookie";
import { afterEach, describe, expect, it, vi } from "vitest";

import { clearToken, getToken, setToken } from "../../src/providers/session";
import { aToken } from "./support/fixtures";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  clearToken();
  localStorage.clear();
});

describe("session token", () => {
  it("stores the token in the jwt cookie and in localStorage", () => {
    const token = aToken();
    setToken(token);
    expect(Cookies.get("jwt")).toBe(token);
    expect(localStorage.getItem("jwt")).toBe(token);
    expect(getToken()).toBe(token);
  });

  it("prefers the cookie over localStorage, and falls back to localStorage", () => {
    localStorage.setItem("jwt", "from-storage");
    expect(getToken()).toBe("from-storage");
    Cookies.set("jwt", "from-cookie");
    expect(getToken()).toBe("from-cookie");
  });

  it("clears both places", () => {
    setToken(aToken());
    clearToken();
    expect(document.cookie).not.toMatch(/jwt=/);
    expect(localStorage.getItem("jwt")).toBeNull();
    expect(getToken()).toBeUndefined();
  });

  it("scopes the cookie to the configured parent domain in production", () => {
    vi.stubEnv("PROD", true);
    vi.stubEnv("VITE_COOKIE_DOMAIN", ".ucsi.example");
    const set = vi.spyOn(Cookies, "set");
    const remove = vi.spyOn(Cookies, "remove");
    setToken(aToken());
    clearToken();
    expect(set.mock.calls[0]![2]).toMatchObject({ domain: ".ucsi.example", sameSite: "lax" });
    expect(remove.mock.calls[0]![1]).toMatchObject({ domain: ".ucsi.example" });
  });

  it("keeps the cookie on this host outside production", () => {
    vi.stubEnv("VITE_COOKIE_DOMAIN", ".ucsi.example");
    const set = vi.spyOn(Cookies, "set");
    setToken(aToken());
    expect(set.mock.calls[0]![2]?.domain).toBeUndefined();
  });
});
