import type { AdminDto } from "../../../src/providers/api-types";

export function anAdmin(overrides: Partial<AdminDto> = {}): AdminDto {
  return {
    id: 7,
    name: "Aisyah Rahman",
    email: "aisyah@ucsi.example",
    permissions: [0, 8],
    isSuperAdmin: false,
    status: "active",
    language: "en-US",
    theme: null,
    lastLoginAt: null,
    createdAt: "2024-01-02T03:04:05.000Z",
    updatedAt: "2024-01-02T03:04:05.000Z",
    ...overrides,
  };
}

/** A JWT-shaped token (header.payload.signature) expiring in an hour. */
export function aToken(): string {
  const payload = btoa(JSON.stringify({ sub: 7, exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `eyJhbGciOiJIUzI1NiJ9.${payload.replace(/=+$/, "")}.signature`;
}
