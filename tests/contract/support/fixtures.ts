import type { WalletPolicyDto } from "../../../src/shared/modules/wallet-policies";
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

/** The wallet policy in force as `GET /api/wallet-policy` answers it (four eyes above RM 200). */
export function aPolicy(overrides: Partial<WalletPolicyDto> = {}): WalletPolicyDto {
  return {
    id: 3,
    minTopUpSen: 1_000,
    maxTopUpSen: 50_000,
    dailyTopUpLimitSen: 100_000,
    maxBalanceSen: 150_000,
    dailyPaymentLimitSen: 50_000,
    dormancyDays: 180,
    fourEyesTopUpAboveSen: 20_000,
    fourEyesRefundAboveSen: 20_000,
    fourEyesOff: [],
    remark: null,
    adminId: null,
    adminName: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}
