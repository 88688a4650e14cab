import type { Operation } from "./openapi";

/** The seed CI samples with (FUZZ_SEED overrides it, to replay or to widen a run). */
export const FUZZ_SEED = 20_261_124;

/**
 * Cases per operation in one round: aggregation lists have the richest input; operations that hash
 * a password on a well-formed body (login, creating an administrator, a password change) are slow
 * on purpose and get fewer; the session-ending logout gets none (it would end the fuzz's session).
 */
export function fuzzRuns(operation: Operation, scale: number): number {
  if (operation.method !== "GET" && !operation.body && operation.parameters.length === 0) return 0;
  if (operation.aggregation) return 300 * scale;
  if (/\/(auth\/login|account\/password|administrators)$/.test(operation.path)) return 25 * scale;
  return 60 * scale;
}
