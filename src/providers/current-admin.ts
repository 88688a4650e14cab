import { useSyncExternalStore } from "react";

import type { AdminDto } from "./api-types";
import { http } from "./http";

/**
 * The signed-in administrator, fetched by the auth check and kept here so identity, permissions
 * and access control answer synchronously afterwards instead of each calling the API again.
 */
let currentAdmin: AdminDto | null = null;
let pending: Promise<AdminDto> | null = null;
const listeners = new Set<() => void>();

export const ACCOUNT_ADMIN_PATH = "/api/account/admin";

export function getCurrentAdmin(): AdminDto | null {
  return currentAdmin;
}

export function setCurrentAdmin(admin: AdminDto | null): void {
  currentAdmin = admin;
  listeners.forEach((listener) => listener());
}

export function clearCurrentAdmin(): void {
  setCurrentAdmin(null);
}

export function subscribeCurrentAdmin(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * `GET /api/account/admin`, stored on success. Calls made while one is in flight share it: the
 * route guard, the identity and every access check ask at once when a page opens.
 */
export function loadCurrentAdmin(): Promise<AdminDto> {
  pending ??= http
    .get<AdminDto>(ACCOUNT_ADMIN_PATH)
    .then(({ data }) => {
      setCurrentAdmin(data);
      return data;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** The current administrator for React components, re-rendering when it changes. */
export function useCurrentAdmin(): AdminDto | null {
  return useSyncExternalStore(subscribeCurrentAdmin, getCurrentAdmin, getCurrentAdmin);
}
