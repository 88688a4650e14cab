import { useSyncExternalStore } from "react";

import type { SecondFactorMethod } from "../shared/schemas/auth";

/**
 * A sign-in between its password and its second factor: the server's ticket and the methods it
 * accepts, kept in memory only (a reload starts the sign-in again, as the ticket's 5 minutes
 * would soon anyway). The login page shows the code step while there is one.
 */
export interface PendingSecondFactor {
  ticket: string;
  methods: SecondFactorMethod[];
}

let pending: PendingSecondFactor | null = null;
const listeners = new Set<() => void>();

export function getSecondFactor(): PendingSecondFactor | null {
  return pending;
}

export function setSecondFactor(next: PendingSecondFactor | null): void {
  pending = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSecondFactor(): PendingSecondFactor | null {
  return useSyncExternalStore(subscribe, getSecondFactor, getSecondFactor);
}
