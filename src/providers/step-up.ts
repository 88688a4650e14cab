/**
 * Step-up (docs/api.md): a sensitive request refused with 403 STEP_UP_REQUIRED waits while the
 * administrator proves who they are again, then is sent again. The http client asks here; the
 * signed-in console registers the dialog that asks the administrator (no React in the client).
 * Requests refused together share one question.
 */
import type { StepUpMethod } from "../shared/schemas/auth";

export const STEP_UP_REQUIRED = "STEP_UP_REQUIRED";
export const STEP_UP_API_PATH = "/api/auth/step-up";

/** Asks for a proof with one of `methods` and posts it: true once accepted, false if cancelled. */
export type StepUpPrompt = (methods: StepUpMethod[]) => Promise<boolean>;

let prompt: StepUpPrompt | undefined;
let asking: Promise<boolean> | undefined;

/** Registers the prompt; answers the function that removes it. */
export function setStepUpPrompt(next: StepUpPrompt): () => void {
  prompt = next;
  return () => {
    if (prompt === next) prompt = undefined;
  };
}

/** The methods a STEP_UP_REQUIRED answer names (its `data.methods`); the password if none. */
export function stepUpMethodsOf(data: unknown): StepUpMethod[] {
  const methods = (data as { methods?: unknown } | null)?.methods;
  const known: StepUpMethod[] = ["passkey", "totp", "recovery-code", "password"];
  const named = Array.isArray(methods) ? known.filter((m) => methods.includes(m)) : [];
  return named.length > 0 ? named : ["password"];
}

/** Whether the administrator proved who they are; false without a prompt (signed out). */
export function confirmIdentity(methods: StepUpMethod[]): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  asking ??= prompt(methods).finally(() => {
    asking = undefined;
  });
  return asking;
}
