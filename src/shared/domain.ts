/**
 * The closed sets of values of the data model (docs/domain.md), one list each: the database's CHECK
 * constraints, the API's zod types, the console's filters and tags all read these.
 */
export const ADMIN_STATUSES = ["active", "disabled", "banned"] as const;
export const ADMIN_LANGUAGES = ["en-US", "cn-ZH"] as const;
/** The console's colour scheme an administrator chose (null: light, the default). */
export const ADMIN_THEMES = ["light", "dark"] as const;
export const USER_ROLES = ["student", "staff", "public", "merchant", "rider", "agent"] as const;
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const WALLET_STATUSES = ["active", "frozen", "dormant"] as const;
export const RIDER_VERIFICATION_STATUSES = ["pending", "Approved", "Rejected"] as const;
export const CONTACT_TYPES = ["email", "phone"] as const;
export const SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;

/** Account numbers as the wallet service issues them: W and nine digits (W000000001). */
export const ACCOUNT_NUMBER_DIGITS = 9;
export const ACCOUNT_NUMBER_PATTERN = new RegExp(`^W\\d{${ACCOUNT_NUMBER_DIGITS}}$`);
export function accountNumber(n: number): string {
  return `W${String(n).padStart(ACCOUNT_NUMBER_DIGITS, "0")}`;
}
/** A search term that is a whole account number (any case), as stored; else undefined. */
export function wholeAccountNumber(term: string): string | undefined {
  const upper = term.toUpperCase();
  return ACCOUNT_NUMBER_PATTERN.test(upper) ? upper : undefined;
}

export type AdminStatus = (typeof ADMIN_STATUSES)[number];
export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];
export type UserRole = (typeof USER_ROLES)[number];
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type WalletStatus = (typeof WALLET_STATUSES)[number];
export type RiderVerificationStatus = (typeof RIDER_VERIFICATION_STATUSES)[number];
export type ContactType = (typeof CONTACT_TYPES)[number];
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const LEDGER_TYPES = ["top_up", "payment", "refund", "reversal", "adjustment"] as const;
export const LEDGER_CHANNELS = ["fpx", "card", "agent", "counter"] as const;
export const LEDGER_STATUSES = ["pending", "success", "failed", "reversed"] as const;
export const BUSINESS_STATUSES = ["pending", "approved", "rejected", "suspended"] as const;
export const SETTLEMENT_STATUSES = ["pending", "paid", "failed"] as const;
export const BUSINESS_CATEGORIES = [
  "canteen",
  "cafe",
  "bookshop",
  "print_shop",
  "laundry",
  "convenience",
  "other",
] as const;

export const PARKING_LOT_STATUSES = ["open", "closed"] as const;
export const PARKING_SESSION_STATUSES = ["active", "completed", "cancelled"] as const;

export type LedgerType = (typeof LEDGER_TYPES)[number];
export type LedgerChannel = (typeof LEDGER_CHANNELS)[number];
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];
export type BusinessStatus = (typeof BUSINESS_STATUSES)[number];
export type BusinessCategory = (typeof BUSINESS_CATEGORIES)[number];
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];
export type AdminTheme = (typeof ADMIN_THEMES)[number];
export type ParkingLotStatus = (typeof PARKING_LOT_STATUSES)[number];
export type ParkingSessionStatus = (typeof PARKING_SESSION_STATUSES)[number];

/** An app notification: waiting for its time, being delivered, delivered, or called off. */
export const APP_NOTIFICATION_STATUSES = ["scheduled", "sending", "sent", "cancelled"] as const;
export type AppNotificationStatus = (typeof APP_NOTIFICATION_STATUSES)[number];
