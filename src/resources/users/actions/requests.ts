import type { BaseKey } from "@refinedev/core";

/**
 * The call the user detail page makes itself, its history (ban, VIP, the URL, the agent's terms,
 * the rider's verification and the password reset are the users declaration's actions, sent by
 * the kit).
 */
export const auditPath = (id: BaseKey) => `/api/users/${encodeURIComponent(String(id))}/audit`;
