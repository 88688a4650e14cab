import type { AccountHolder } from "../../../src/shared/modules/top-ups";
import type { UserReportDto } from "../../../src/shared/modules/user-reports";
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
    hasSecondFactor: false,
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

/** Whose wallet a typed account number names, as the counter top-up's look-up answers it. */
export function aHolder(overrides: Partial<AccountHolder> = {}): AccountHolder {
  return {
    accountNumber: "UC000042",
    name: "Nur Aina",
    role: "student",
    approvalStatus: "approved",
    isBanned: false,
    walletStatus: "active",
    balanceSen: 2_050,
    ...overrides,
  };
}

/** A dispute about a payment (RM 20 unless told), in progress, all of it refundable. */
export function aReport(overrides: Partial<UserReportDto> = {}): UserReportDto {
  return {
    id: 7,
    reference: "RPT-000007",
    type: "transaction_dispute",
    subject: "Charged twice for one meal",
    description: "The till took my payment twice.",
    reporterId: 42,
    reporterAccountNumber: "W100000042",
    reporterName: "Nur Aina",
    paymentId: 900,
    paymentReference: "PY20261120ABCDEFGHIJ",
    paymentAmountSen: 2_000,
    refundableSen: 2_000,
    businessId: 5,
    businessName: "Library Café",
    status: "in_progress",
    assigneeId: 3,
    assigneeName: "Finance",
    note: null,
    refundSen: null,
    refundReference: null,
    closedAt: null,
    closedBy: null,
    closedByName: null,
    createdAt: "2026-11-20T02:00:00.000Z",
    ...overrides,
  };
}
