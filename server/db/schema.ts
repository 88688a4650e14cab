/**
 * The database schema (docs/domain.md describes every table, its states and transitions).
 * Conventions every table follows: integer identity ids,
 * snake_case columns, `created_at`/`updated_at` timestamptz, money as integer sen, closed sets of
 * values as text with a CHECK constraint (adding a value later is a one-line migration, unlike a
 * PostgreSQL enum type).
 */
import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

import {
  ADMIN_LANGUAGES,
  ADMIN_STATUSES,
  ADMIN_THEMES,
  APP_NOTIFICATION_STATUSES,
  APPROVAL_STATUSES,
  BUSINESS_CATEGORIES,
  BUSINESS_STATUSES,
  LEDGER_CHANNELS,
  LEDGER_STATUSES,
  LEDGER_TYPES,
  CONTACT_TYPES,
  PARKING_LOT_STATUSES,
  PARKING_SESSION_STATUSES,
  RIDER_VERIFICATION_STATUSES,
  SETTLEMENT_STATUSES,
  SUBMISSION_STATUSES,
  USER_ROLES,
  WALLET_STATUSES,
} from "../../src/shared/domain";
import { UCSI_ID_STATUSES, UCSI_ID_TYPES } from "../../src/shared/modules/ucsi-ids";
import { REPORT_STATUSES, REPORT_TYPES } from "../../src/shared/modules/user-reports";
import { searchKey } from "./search-key";
import {
  CHANGE_REQUEST_STATUSES,
  DEFAULT_FOUR_EYES_ABOVE_SEN,
} from "../../src/shared/kit/four-eyes";
import { HELP_ARTICLE_STATUSES, HELP_CATEGORIES } from "../../src/shared/modules/help-articles";
import { ANNOUNCEMENT_AUDIENCES } from "../../src/shared/modules/merchant-announcements";
import { BUSINESS_DOCUMENT_KINDS, DOCUMENT_CONTENT_TYPES } from "../../src/shared/documents";

// The closed sets live with the shared rules; the schema (and its importers) use them from here too.
export * from "../../src/shared/domain";

/** `column IN ('a', 'b')` for a CHECK constraint; the values are constants of this file. */
function oneOf(column: AnyPgColumn, values: readonly string[]) {
  return sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(", "))})`;
}

const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true, mode: "date" })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * A record's version (docs/versions.md): 1 when written, bumped by every change the module kit
 * makes (server/kit/change.ts). A form or an action sends the version it was based on (If-Match);
 * a record that moved on since refuses the change with 409 and the current record.
 */
const version = () => integer("version").notNull().default(1);

/** Bytes as PostgreSQL keeps them (`pg` reads and writes a bytea column as a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** A staff decision on a record: the remark given, who decided and when. */
const review = () => ({
  remark: text("remark"),
  reviewerId: integer("reviewer_id").references((): AnyPgColumn => administrators.id, {
    onDelete: "set null",
  }),
  reviewedAt: timestamp("reviewed_at", { withTimezone: true, mode: "date" }),
});

export const administrators = pgTable(
  "administrators",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    permissions: integer("permissions")
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    isSuperAdmin: boolean("is_super_admin").notNull().default(false),
    status: text("status", { enum: ADMIN_STATUSES }).notNull().default("active"),
    language: text("language", { enum: ADMIN_LANGUAGES }),
    /** The console's colour scheme this administrator chose (null: light). */
    theme: text("theme", { enum: ADMIN_THEMES }),
    lastLoginAt: timestamp("last_login_at", { withTimezone: true, mode: "date" }),
    /**
     * Every token carries the version it was issued under; a password change or reset, an
     * e-mail change, a ban or disable raises it, and every older token stops working at once.
     */
    credentialVersion: integer("credential_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("administrators_email_lower_key").on(sql`lower(${t.email})`),
    index("administrators_created_at_idx").on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check("administrators_status_check", oneOf(t.status, ADMIN_STATUSES)),
    check("administrators_language_check", oneOf(t.language, ADMIN_LANGUAGES)),
    check("administrators_theme_check", oneOf(t.theme, ADMIN_THEMES)),
  ],
);

export const users = pgTable(
  "users",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    accountNumber: text("account_number").notNull().unique("users_account_number_key"),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    role: text("role", { enum: USER_ROLES }).notNull(),
    approvalStatus: text("approval_status", { enum: APPROVAL_STATUSES })
      .notNull()
      .default("pending"),
    approvalRemark: text("approval_remark"),
    isBanned: boolean("is_banned").notNull().default(false),
    banRemark: text("ban_remark"),
    isVip: boolean("is_vip").notNull().default(false),
    url: text("url"),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true, mode: "date" }),
    /**
     * The wallet app's password (scrypt, as administrators'); null until the user sets one through
     * an e-mailed reset link. `credentialVersion` is in every wallet app token: a reset bumps it,
     * so every token issued before stops working.
     */
    passwordHash: text("password_hash"),
    credentialVersion: integer("credential_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * What the users list's `$search` matches: the search key (./search-key.ts) of the searchable
     * fields lower-cased and joined with U+001F, so that no match spans two fields (see
     * CollectionSpec.searchKey). Kept by the database, computed once per write: translate() on
     * every user a search reads was 4.5 of the 5 ms a common name's page took at a million users
     * (migration 0023). One trigram index serves every search.
     */
    searchKey: text("search_key").generatedAlwaysAs(
      searchKey(
        sql`lower(account_number || chr(31) || name || chr(31) || coalesce(email, '') || chr(31) || coalesce(phone, ''))`,
      ),
    ),
  },
  (t) => [
    index("users_search_key_trgm_idx").using("gin", sql`${t.searchKey} gin_trgm_ops`),
    index("users_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // A search for a common term (one user in a hundred has it) finds its page by walking the
    // newest users in this index, reading search_key from it (index-only), instead of fetching
    // every match through the trigram index. search_key never decides the order ((created_at,
    // id) is unique); migration 0023 gives the planner the statistics to choose.
    index("users_created_at_search_idx").on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.searchKey,
    ),
    index("users_approval_status_created_at_idx").on(
      t.approvalStatus,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_role_idx").on(t.role),
    index("users_last_active_at_idx").on(t.lastActiveAt),
    check("users_role_check", oneOf(t.role, USER_ROLES)),
    check("users_approval_status_check", oneOf(t.approvalStatus, APPROVAL_STATUSES)),
  ],
);

export const wallets = pgTable(
  "wallets",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .unique("wallets_user_id_key")
      .references(() => users.id, { onDelete: "cascade" }),
    balanceSen: bigint("balance_sen", { mode: "number" }).notNull().default(0),
    status: text("status", { enum: WALLET_STATUSES }).notNull().default("active"),
    /** The hash of the wallet's newest ledger row: the head of its chain (docs/integrity.md). */
    ledgerHash: bytea("ledger_hash"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("wallets_status_check", oneOf(t.status, WALLET_STATUSES)),
    check("wallets_balance_sen_check", sql`${t.balanceSen} >= 0`),
  ],
);

/** A document a rider uploaded; its content is in `rider_document_files` under the same id. */
export interface RiderDocument {
  kind: string;
  fileName: string;
  path: string;
  uploadedAt: string;
}

export const riders = pgTable(
  "riders",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    vehicleType: text("vehicle_type").notNull(),
    plate: text("plate").notNull(),
    licenceNumber: text("licence_number").notNull(),
    documents: jsonb("documents").$type<RiderDocument[]>().notNull().default([]),
    verificationStatus: text("verification_status", { enum: RIDER_VERIFICATION_STATUSES })
      .notNull()
      .default("pending"),
    verificationRemarks: text("verification_remarks"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("riders_verification_status_idx").on(t.verificationStatus),
    check(
      "riders_verification_status_check",
      oneOf(t.verificationStatus, RIDER_VERIFICATION_STATUSES),
    ),
  ],
);

export const riderAttendance = pgTable(
  "rider_attendance",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => riders.userId, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    clockIn: timestamp("clock_in", { withTimezone: true, mode: "date" }).notNull(),
    clockOut: timestamp("clock_out", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("rider_attendance_user_id_date_idx").on(t.userId, t.date),
    check(
      "rider_attendance_clock_check",
      sql`${t.clockOut} is null or ${t.clockOut} >= ${t.clockIn}`,
    ),
  ],
);

export const agents = pgTable(
  "agents",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    agentType: text("agent_type").notNull(),
    commissionRateBp: integer("commission_rate_bp").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("agents_commission_rate_bp_check", sql`${t.commissionRateBp} between 0 and 10000`)],
);

export const changeContactSubmissions = pgTable(
  "change_contact_submissions",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    contactType: text("contact_type", { enum: CONTACT_TYPES }).notNull(),
    oldValue: text("old_value"),
    newValue: text("new_value").notNull(),
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull().default("pending"),
    ...review(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("change_contact_submissions_status_created_at_idx").on(
      t.status,
      t.createdAt.desc().nullsFirst(),
    ),
    index("change_contact_submissions_user_id_idx").on(t.userId),
    check("change_contact_submissions_contact_type_check", oneOf(t.contactType, CONTACT_TYPES)),
    check("change_contact_submissions_status_check", oneOf(t.status, SUBMISSION_STATUSES)),
  ],
);

/**
 * The audit trail. `admin_id` deliberately has no foreign key: the trail outlives the
 * administrator. A trigger (migration 0001) refuses UPDATE and DELETE.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: integer("admin_id"),
    action: text("action").notNull(),
    targetTable: text("target_table").notNull(),
    targetId: text("target_id").notNull(),
    remark: text("remark"),
    before: jsonb("before"),
    after: jsonb("after"),
    /** The second administrator who approved the change (four eyes); null when none was needed. */
    approvedBy: integer("approved_by"),
    createdAt: createdAt(),
    /**
     * The tamper-evident chain (docs/integrity.md): the entry is link `chain_seq` of chain shard
     * `chain_shard`, and `hash` is SHA-256 over the previous link's hash and the entry's canonical
     * content. Null only on entries written before the chain existed (until they are chained).
     */
    chainShard: integer("chain_shard"),
    chainSeq: bigint("chain_seq", { mode: "number" }),
    hash: bytea("hash"),
  },
  (t) => [
    uniqueIndex("audit_log_chain_key").on(t.chainShard, t.chainSeq),
    index("audit_log_target_idx").on(t.targetTable, t.targetId, t.createdAt.desc().nullsFirst()),
    index("audit_log_admin_id_idx").on(t.adminId, t.createdAt.desc().nullsFirst()),
  ],
);

export const globalSettings = pgTable("global_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type AdministratorRow = typeof administrators.$inferSelect;
export type UserRow = typeof users.$inferSelect;

/**
 * One-time password reset links of one kind of person, whose id `owner` (column `ownerColumn`)
 * names: only the SHA-256 of a token is kept, so a database leak hands out no working links.
 * Only the newest unused link of a person works; earlier ones are marked used when a new one is
 * issued.
 */
function passwordResetLinks<Owner extends string>(
  name: string,
  owner: Owner,
  ownerColumn: string,
  ownerId: () => AnyPgColumn,
) {
  const ownerIdColumn = integer(ownerColumn).notNull().references(ownerId, { onDelete: "cascade" });
  return pgTable(
    name,
    {
      id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
      ...({ [owner]: ownerIdColumn } as Record<Owner, typeof ownerIdColumn>),
      tokenHash: text("token_hash").notNull().unique(`${name}_token_hash_key`),
      expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
      usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
      requestedBy: integer("requested_by").references(() => administrators.id, {
        onDelete: "set null",
      }),
      createdAt: createdAt(),
      updatedAt: updatedAt(),
    },
    (t) => [index(`${name}_${ownerColumn}_idx`).on(t[owner])],
  );
}

/** Wallet users' links, created by the back office. */
export const userPasswordResets = passwordResetLinks(
  "user_password_resets",
  "userId",
  "user_id",
  () => users.id,
);

/** Administrators' links: nobody sets another administrator's password (issue 30). */
export const administratorPasswordResets = passwordResetLinks(
  "administrator_password_resets",
  "administratorId",
  "administrator_id",
  () => administrators.id,
);

/** Why a staff session ended (see adminSessions). */
export const SESSION_END_REASONS = ["logout", "idle", "ended", "ended-by-admin"] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** How a session's holder last proved who they are. */
export const SESSION_PROOFS = ["password", "passkey", "totp", "recovery-code"] as const;

/**
 * One row per token a sign-in issued (its JWT id): where and on what it was signed in, when it
 * was last used, when its holder last proved who they are (the password at sign-in, a second
 * factor, a step-up), and whether it ended. Every authenticated request reads it, so a session
 * ended on one server instance is refused by all of them.
 */
export const adminSessions = pgTable(
  "admin_sessions",
  {
    jti: text("jti").primaryKey(),
    adminId: integer("admin_id")
      .notNull()
      .references(() => administrators.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    device: text("device").notNull(),
    /** The administrator's credential version it was opened under (a later one ends it). */
    credentialVersion: integer("credential_version").notNull(),
    createdAt: createdAt(),
    /** Last use (written at most every 30 s): the idle timeout counts from here. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    /** The token's own expiry: the absolute lifetime. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    /** When its holder last proved who they are, and how (step-up needs this to be recent). */
    verifiedAt: timestamp("verified_at", { withTimezone: true, mode: "date" }).notNull(),
    verifiedBy: text("verified_by", { enum: SESSION_PROOFS }).notNull(),
    /**
     * Signed in with the password alone by an administrator a second factor is required of: the
     * session serves only enrolment until one is confirmed.
     */
    mustEnrol: boolean("must_enrol").notNull().default(false),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
    endReason: text("end_reason", { enum: SESSION_END_REASONS }),
  },
  (t) => [
    index("admin_sessions_admin_idx").on(t.adminId, t.createdAt.desc()),
    index("admin_sessions_expires_at_idx").on(t.expiresAt),
    check("admin_sessions_end_reason_check", oneOf(t.endReason, SESSION_END_REASONS)),
    check("admin_sessions_verified_by_check", oneOf(t.verifiedBy, SESSION_PROOFS)),
  ],
);

export type AdminSessionRow = typeof adminSessions.$inferSelect;

/**
 * An administrator's authenticator app (TOTP, RFC 6238): its secret, whether the administrator
 * confirmed it with a code, and the last time step a code was accepted for, so that no code is
 * accepted twice.
 */
export const adminTotp = pgTable("admin_totp", {
  adminId: integer("admin_id")
    .primaryKey()
    .references(() => administrators.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
  lastStep: bigint("last_step", { mode: "number" }),
  createdAt: createdAt(),
});

/** Ten one-time recovery codes per administrator, kept as SHA-256 digests (80 random bits each). */
export const adminRecoveryCodes = pgTable(
  "admin_recovery_codes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    adminId: integer("admin_id")
      .notNull()
      .references(() => administrators.id, { onDelete: "cascade" }),
    digest: text("digest").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("admin_recovery_codes_digest_key").on(t.adminId, t.digest)],
);

/**
 * An administrator's passkeys (WebAuthn credentials: a platform authenticator or a security
 * key): the credential's id and public key (COSE), its signature counter (a clone that replays
 * an older counter is refused), how the browser reaches it, and the name its owner gave it.
 */
export const adminPasskeys = pgTable(
  "admin_passkeys",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    adminId: integer("admin_id")
      .notNull()
      .references(() => administrators.id, { onDelete: "cascade" }),
    /** The credential id, base64url: how an assertion names its passkey. */
    credentialId: text("credential_id").notNull(),
    publicKey: bytea("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text("name").notNull(),
    /** Backed up by its provider (a synced passkey) rather than bound to one device. */
    synced: boolean("synced").notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("admin_passkeys_credential_id_key").on(t.credentialId),
    index("admin_passkeys_admin_idx").on(t.adminId),
  ],
);
export type AdminPasskeyRow = typeof adminPasskeys.$inferSelect;

/** What a passkey challenge is for (the ceremony that must answer it). */
export const PASSKEY_CHALLENGE_PURPOSES = [
  "register",
  "sign-in",
  "second-factor",
  "step-up",
] as const;

/**
 * The challenges handed to browsers for a passkey ceremony: 32 random bytes (base64url), for one
 * purpose and (except a sign-in with a passkey alone) one administrator, valid 5 minutes, and
 * deleted by the answer that uses them, so none is answered twice.
 */
export const passkeyChallenges = pgTable(
  "passkey_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: PASSKEY_CHALLENGE_PURPOSES }).notNull(),
    adminId: integer("admin_id").references(() => administrators.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("passkey_challenges_expires_at_idx").on(t.expiresAt),
    check("passkey_challenges_purpose_check", oneOf(t.purpose, PASSKEY_CHALLENGE_PURPOSES)),
  ],
);

/**
 * A password accepted, a second factor still to come: the sign-in's ticket (its SHA-256 digest),
 * short-lived, refused after a few wrong codes, used once.
 */
export const loginTickets = pgTable(
  "login_tickets",
  {
    digest: text("digest").primaryKey(),
    adminId: integer("admin_id")
      .notNull()
      .references(() => administrators.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    failures: integer("failures").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("login_tickets_expires_at_idx").on(t.expiresAt)],
);

/**
 * Rate-limit counters (login, calculator report), one row per limited key and window, so every
 * server instance counts against the same limit. Rows whose window is over are dead weight: the
 * housekeeping job deletes them.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    resetsAt: timestamp("resets_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("rate_limit_counters_resets_at_idx").on(t.resetsAt)],
);

/**
 * Sliding-window rate limits (failed logins per client address): one row per limited key with the
 * times of its counted hits, so that any window-long span holds at most the limit, which a fixed
 * window's counter cannot promise (twice the limit passes across its reset). One row, so one
 * statement locks and updates it, on every server instance alike. `expires_at` is the newest
 * hit's time plus the window: after it no hit of the row counts, and housekeeping deletes it.
 */
export const rateLimitLogs = pgTable(
  "rate_limit_logs",
  {
    key: text("key").primaryKey(),
    hits: timestamp("hits", { withTimezone: true, mode: "date" }).array().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("rate_limit_logs_expires_at_idx").on(t.expiresAt)],
);

/**
 * The content of the documents riders upload (their names and types are in `riders.documents`),
 * in the database so that every server instance serves every document.
 */
export const riderDocumentFiles = pgTable(
  "rider_document_files",
  {
    id: text("id").primaryKey(),
    riderUserId: integer("rider_user_id")
      .notNull()
      .references(() => riders.userId, { onDelete: "cascade" }),
    content: bytea("content").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("rider_document_files_rider_user_id_idx").on(t.riderUserId)],
);

/**
 * Jobs the servers run on a schedule: the instance that moves `next_run_at` forward runs the job,
 * so several instances run each due job once.
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  nextRunAt: timestamp("next_run_at", { withTimezone: true, mode: "date" }).notNull(),
  lastRunAt: timestamp("last_run_at", { withTimezone: true, mode: "date" }),
  lastRunBy: text("last_run_by"),
  runs: integer("runs").notNull().default(0),
});

/** Merchants: a user's business on campus, paid from wallets, settled to its bank account. */
export const businesses = pgTable(
  "businesses",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    registrationNumber: text("registration_number").notNull(),
    category: text("category", { enum: BUSINESS_CATEGORIES }).notNull(),
    status: text("status", { enum: BUSINESS_STATUSES }).notNull().default("pending"),
    feeRateBp: integer("fee_rate_bp").notNull().default(0),
    bankName: text("bank_name").notNull(),
    bankAccount: text("bank_account").notNull(),
    ...review(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("businesses_status_created_at_idx").on(t.status, t.createdAt.desc().nullsFirst()),
    index("businesses_owner_user_id_idx").on(t.ownerUserId),
    check("businesses_status_check", oneOf(t.status, BUSINESS_STATUSES)),
    check("businesses_category_check", oneOf(t.category, BUSINESS_CATEGORIES)),
    check("businesses_fee_rate_bp_check", sql`${t.feeRateBp} between 0 and 10000`),
  ],
);

/**
 * A merchant's proposed changes to its business (`changes`: field → new value), with the values
 * the business had when it was proposed (`previous`): approving applies `changes` in the same
 * transaction, and is refused when the business no longer holds `previous`.
 */
export const businessUpdateRequests = pgTable(
  "business_update_requests",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    changes: jsonb("changes").$type<Record<string, string>>().notNull(),
    previous: jsonb("previous").$type<Record<string, string>>().notNull(),
    status: text("status", { enum: SUBMISSION_STATUSES }).notNull().default("pending"),
    ...review(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("business_update_requests_status_created_at_idx").on(
      t.status,
      t.createdAt.desc().nullsFirst(),
    ),
    index("business_update_requests_business_id_idx").on(t.businessId),
    check("business_update_requests_status_check", oneOf(t.status, SUBMISSION_STATUSES)),
    check(
      "business_update_requests_changes_check",
      sql`jsonb_typeof(${t.changes}) = 'object' and ${t.changes} <> '{}'::jsonb`,
    ),
  ],
);

/**
 * The wallet ledger: every change of a balance is one row here, written in the same transaction
 * as the wallet's new balance, under the wallet's row lock. Append-only (migration 0008's
 * trigger): only `status` may change (a top-up becomes `reversed`); refunds and reversals are
 * new rows that point at the row they undo.
 */
export const walletTransactions = pgTable(
  "wallet_transactions",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    type: text("type", { enum: LEDGER_TYPES }).notNull(),
    amountSen: bigint("amount_sen", { mode: "number" }).notNull(),
    balanceAfterSen: bigint("balance_after_sen", { mode: "number" }).notNull(),
    channel: text("channel", { enum: LEDGER_CHANNELS }),
    businessId: integer("business_id").references(() => businesses.id, { onDelete: "restrict" }),
    agentUserId: integer("agent_user_id").references(() => users.id, { onDelete: "restrict" }),
    status: text("status", { enum: LEDGER_STATUSES }).notNull().default("success"),
    reference: text("reference").notNull().unique("wallet_transactions_reference_key"),
    /**
     * The row a reversal or refund undoes: a top-up has at most one reversal (a partial unique
     * index); a payment may have several partial refunds, together at most its amount (checked
     * under the payment's row lock, server/services/ledger.ts).
     */
    reversesId: integer("reverses_id").references((): AnyPgColumn => walletTransactions.id, {
      onDelete: "restrict",
    }),
    /**
     * A payment's fee (sen): its amount at the business's rate in force when it was made, rounded
     * half up (feeOfPayment); null on every other row.
     */
    feeSen: bigint("fee_sen", { mode: "number" }),
    remark: text("remark"),
    /** The staff member (counter top-up, reversal): no foreign key, the ledger outlives them. */
    adminId: integer("admin_id"),
    /** lower(reference + U+001F + account number); its search key is trigram-indexed. */
    searchText: text("search_text").notNull(),
    createdAt: createdAt(),
    /**
     * The wallet's chain (docs/integrity.md): SHA-256 over the hash of the wallet's previous row
     * and this row's canonical content (every column but status). Null only on rows written
     * before the chain existed (until they are chained).
     */
    hash: bytea("hash"),
  },
  (t) => [
    // The top-up list's pages and its count (to 1,000) under a status and date filter walk these
    // in order, reading user_id (the list joins the owner) from the index: at 10 million rows
    // counting a day's top-ups through the table's rows read 1,000 scattered pages (migration
    // 0011). user_id never decides the order ((created_at, id) is unique).
    index("wallet_transactions_type_created_at_idx").on(
      t.type,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.userId,
    ),
    index("wallet_transactions_type_status_created_at_idx").on(
      t.type,
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.userId,
    ),
    index("wallet_transactions_user_id_created_at_idx").on(t.userId, t.createdAt),
    // A business's payments and refunds by time, with every column a settlement run reads of
    // each (migration 0038): a month's run over 500 businesses reads its 1.3 million candidates
    // from this index alone, where it fetched each from the table's pages, scattered over the
    // ledger (at 10 million rows the run's largest cost on PGlite's buffer pool). Only rows of a
    // business: top-ups and the like are not in it.
    index("wallet_transactions_business_id_created_at_idx")
      .on(t.businessId, t.createdAt, t.id, t.type, t.status, t.amountSen, t.feeSen)
      .where(sql`${t.businessId} is not null`),
    uniqueIndex("wallet_transactions_reversal_of_key")
      .on(t.reversesId)
      .where(sql`${t.type} = 'reversal'`),
    index("wallet_transactions_reverses_id_idx").on(t.reversesId),
    // Without fastupdate: every search scanned the pending list of new rows' trigrams whole
    // (up to 4 MB, flushed only when full, as autovacuum waits for 20% more rows): at 10 million
    // rows a reference search went from 3 to 18 ms of PostgreSQL time as top-ups came in, while
    // a top-up costs no more writing its trigrams at once (migration 0011).
    index("wallet_transactions_search_key_trgm_idx")
      .using("gin", sql`(${searchKey(t.searchText)}) gin_trgm_ops`)
      .with({ fastupdate: "off" }),
    check("wallet_transactions_type_check", oneOf(t.type, LEDGER_TYPES)),
    check("wallet_transactions_channel_check", oneOf(t.channel, LEDGER_CHANNELS)),
    check("wallet_transactions_status_check", oneOf(t.status, LEDGER_STATUSES)),
    check("wallet_transactions_amount_sen_check", sql`${t.amountSen} <> 0`),
    check("wallet_transactions_balance_after_sen_check", sql`${t.balanceAfterSen} >= 0`),
    check(
      "wallet_transactions_fee_sen_check",
      sql`(${t.type} = 'payment') = (${t.feeSen} is not null) and ${t.feeSen} >= 0`,
    ),
  ],
);

/**
 * Each business's successful payments and refunds per business day (BUSINESS_TIMEZONE): the
 * Merchant Transaction Summary reads these instead of the ledger. The ledger keeps them up to
 * date in the same transaction as each payment or refund (server/services/ledger.ts); seeds
 * rebuild them from the ledger (rebuildMerchantDays). Net = gross − refunds − fees.
 */
export const merchantDays = pgTable(
  "merchant_days",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "restrict" }),
    day: date("day", { mode: "string" }).notNull(),
    paymentCount: integer("payment_count").notNull().default(0),
    grossSen: bigint("gross_sen", { mode: "number" }).notNull().default(0),
    refundCount: integer("refund_count").notNull().default(0),
    refundSen: bigint("refund_sen", { mode: "number" }).notNull().default(0),
    feeSen: bigint("fee_sen", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    uniqueIndex("merchant_days_business_id_day_key").on(t.businessId, t.day),
    // The summary's pages (newest day first over every business) and its totals over a range,
    // both read from this index alone: a month's totals summed 14,000 rows from 1,800 table pages
    // in 9 ms at 10 million ledger rows, 3 ms from the index (migration 0024). A payment's update
    // of its day's figures is then no HOT update; payments are not what the campus waits for.
    index("merchant_days_day_id_idx").on(
      t.day.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.paymentCount,
      t.grossSen,
      t.refundCount,
      t.refundSen,
      t.feeSen,
    ),
  ],
);

/** A bit string (PostgreSQL `bit varying`), as its text of 0s and 1s. */
const varbit = customType<{ data: string; driverData: string }>({
  dataType: () => "bit varying",
});

/**
 * Successful top-ups per business day (BUSINESS_TIMEZONE), channel ('' for none) and shard of
 * the wallet (user_id % LEDGER_SHARDS, so that top-ups to different wallets rarely queue on one
 * row): what Statistic and the dashboard count instead of the ledger's rows. The ledger keeps them
 * in the same transaction as each top-up and reversal (server/db/ledger-rollups.ts); seeds
 * rebuild them (rebuildLedgerRollups).
 */
export const topUpDays = pgTable(
  "top_up_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    channel: text("channel").notNull(),
    shard: integer("shard").notNull(),
    topUps: integer("top_ups").notNull(),
    topUpSen: bigint("top_up_sen", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("top_up_days_day_channel_shard_key").on(t.day, t.channel, t.shard)],
);

/**
 * Who was active on a business day: per shard (user_id % LEDGER_SHARDS) a bit string whose bit
 * user_id / LEDGER_SHARDS is 1 when that user made a successful top-up or payment that day.
 * A few kilobytes a day instead of a sort of every ledger row; a closed day's shards become one
 * string by user id (closed_days). Kept like top_up_days.
 */
export const activeUserDays = pgTable(
  "active_user_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    shard: integer("shard").notNull(),
    users: varbit("users").notNull(),
  },
  (t) => [uniqueIndex("active_user_days_day_shard_key").on(t.day, t.shard)],
);

/**
 * A closed business day's figures (server/db/closed-days.ts): one row per figure (new_user,
 * top_up, payment, refund, settlement) and key (role, channel or ''), copied from the live
 * roll-ups when the day closes.
 */
export const closedDayFigures = pgTable(
  "closed_day_figures",
  {
    day: date("day", { mode: "string" }).notNull(),
    figure: text("figure").notNull(),
    key: text("key").notNull(),
    n: integer("n").notNull(),
    sen: bigint("sen", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.figure, t.key] })],
);

/**
 * Every closed business day (server/db/closed-days.ts): its active users as bits by user id,
 * and each business's running payment count and gross up to the day's end, indexed by business
 * id. `version` names the row for the server's cache of active users (a rebuild writes new rows).
 */
export const closedDays = pgTable(
  "closed_days",
  {
    day: date("day", { mode: "string" }).primaryKey(),
    version: bigint("version", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    activeUsers: bytea("active_users").notNull(),
    merchantPayments: bigint("merchant_payments", { mode: "number" }).array().notNull(),
    merchantGross: bigint("merchant_gross", { mode: "number" }).array().notNull(),
  },
  (t) => [uniqueIndex("closed_days_version_key").on(t.version)],
);

/** How many users there are of each approval status, kept by triggers on users (0020). */
export const userApprovalCounts = pgTable("user_approval_counts", {
  approvalStatus: text("approval_status").primaryKey(),
  n: integer("n").notNull(),
});

/** How many riders there are of each verification status, kept by triggers on riders (0026). */
export const riderVerificationCounts = pgTable("rider_verification_counts", {
  verificationStatus: text("verification_status").primaryKey(),
  n: integer("n").notNull(),
});

/**
 * A payout to a business of its unsettled successful payments, less its refunds and fees, up
 * to the end of a business day (`period_end`). Each ledger row it covers is a settlement item,
 * at most once (settlement_items' primary key). Paid is final (bank reference and time kept).
 */
export const settlements = pgTable(
  "settlements",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "restrict" }),
    periodStart: date("period_start", { mode: "string" }).notNull(),
    periodEnd: date("period_end", { mode: "string" }).notNull(),
    paymentCount: integer("payment_count").notNull(),
    grossSen: bigint("gross_sen", { mode: "number" }).notNull(),
    refundCount: integer("refund_count").notNull(),
    refundSen: bigint("refund_sen", { mode: "number" }).notNull(),
    feeSen: bigint("fee_sen", { mode: "number" }).notNull(),
    netSen: bigint("net_sen", { mode: "number" }).notNull(),
    /** Where it is paid: the business's settlement account when the run made it. */
    bankName: text("bank_name").notNull(),
    bankAccount: text("bank_account").notNull(),
    status: text("status", { enum: SETTLEMENT_STATUSES }).notNull().default("pending"),
    bankReference: text("bank_reference"),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    /** The run's administrator (no foreign key: the record outlives them). */
    createdBy: integer("created_by"),
    ...review(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("settlements_created_at_idx").on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("settlements_business_id_period_end_idx").on(t.businessId, t.periodEnd),
    check("settlements_status_check", oneOf(t.status, SETTLEMENT_STATUSES)),
    check("settlements_period_check", sql`${t.periodStart} <= ${t.periodEnd}`),
    check("settlements_net_check", sql`${t.netSen} = ${t.grossSen} - ${t.refundSen} - ${t.feeSen}`),
    check(
      "settlements_paid_check",
      sql`(${t.status} = 'paid') = (${t.bankReference} is not null and ${t.paidAt} is not null)`,
    ),
  ],
);

/** The ledger rows (payments and refunds) a settlement covers: each row in one settlement only. */
export const settlementItems = pgTable(
  "settlement_items",
  {
    // No foreign keys: the ledger's rows and settlements are never deleted (triggers, 0008, 0021
    // and 0022), and a run writes its settlements and their items from the ledger in one
    // statement, so each key would only be checked row by row: the ledger's key locked each row
    // covered (a month's run over 500 businesses: 68 s with it, 24 s without), the settlement's
    // looked its settlement up 1.3 million times (7 s of that run).
    transactionId: integer("transaction_id").primaryKey(),
    settlementId: integer("settlement_id").notNull(),
  },
  // A settlement's items by their settlement (its list, the reconciliation): on settlement_id
  // alone, its ids kept deduplicated in one list per settlement. A run adds its items in ledger id
  // order, each into its own settlement's part of this index: with the ledger id in the key too,
  // each was an entry of its own, and writing a month's items took a third longer (migration 0038).
  (t) => [index("settlement_items_settlement_id_idx").on(t.settlementId)],
);

/**
 * The wallet policy, versioned: the newest row is in force; a change adds a row (append-only,
 * migration 0008). Limits in sen; `min ≤ max top-up ≤ daily top-up limit ≤ max balance`.
 */
export const walletPolicies = pgTable(
  "wallet_policies",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    maxBalanceSen: bigint("max_balance_sen", { mode: "number" }).notNull(),
    minTopUpSen: bigint("min_top_up_sen", { mode: "number" }).notNull(),
    maxTopUpSen: bigint("max_top_up_sen", { mode: "number" }).notNull(),
    dailyTopUpLimitSen: bigint("daily_top_up_limit_sen", { mode: "number" }).notNull(),
    dailyPaymentLimitSen: bigint("daily_payment_limit_sen", { mode: "number" }).notNull(),
    dormancyDays: integer("dormancy_days").notNull(),
    /** Four eyes: a counter top-up or a refund above these waits for a second approver. */
    fourEyesTopUpAboveSen: bigint("four_eyes_top_up_above_sen", { mode: "number" })
      .notNull()
      .default(DEFAULT_FOUR_EYES_ABOVE_SEN),
    fourEyesRefundAboveSen: bigint("four_eyes_refund_above_sen", { mode: "number" })
      .notNull()
      .default(DEFAULT_FOUR_EYES_ABOVE_SEN),
    /**
     * Four eyes turned off: the declared changes (`<module>.<action>`) applied at once while this
     * version is in force (src/shared/modules/wallet-policies.ts, FOUR_EYES_SWITCHABLE).
     */
    fourEyesOff: text("four_eyes_off")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    remark: text("remark"),
    /** Who set it: no foreign key, as in audit_log (the history outlives the administrator). */
    adminId: integer("admin_id"),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "wallet_policies_limits_check",
      sql`${t.minTopUpSen} > 0 and ${t.minTopUpSen} <= ${t.maxTopUpSen}
        and ${t.maxTopUpSen} <= ${t.dailyTopUpLimitSen}
        and ${t.dailyTopUpLimitSen} <= ${t.maxBalanceSen} and ${t.dailyPaymentLimitSen} > 0`,
    ),
    check("wallet_policies_dormancy_days_check", sql`${t.dormancyDays} between 1 and 36500`),
    check(
      "wallet_policies_four_eyes_check",
      sql`${t.fourEyesTopUpAboveSen} >= 0 and ${t.fourEyesRefundAboveSen} >= 0`,
    ),
  ],
);

/**
 * University IDs linked to wallet accounts (UCSI ID Management). At most one active link per ID
 * and one per account: partial unique indexes, so a revoked link stays as history and the ID
 * can be linked again.
 */
export const ucsiIds = pgTable(
  "ucsi_ids",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    ucsiId: text("ucsi_id").notNull(),
    type: text("type", { enum: UCSI_ID_TYPES }).notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    status: text("status", { enum: UCSI_ID_STATUSES }).notNull().default("active"),
    linkedAt: timestamp("linked_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Who linked it (no foreign key: the record outlives them); null for an app's own link. */
    linkedBy: integer("linked_by"),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    revokedBy: integer("revoked_by"),
    remark: text("remark"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("ucsi_ids_active_ucsi_id_key")
      .on(t.ucsiId)
      .where(sql`${t.status} = 'active'`),
    uniqueIndex("ucsi_ids_active_user_id_key")
      .on(t.userId)
      .where(sql`${t.status} = 'active'`),
    index("ucsi_ids_linked_at_idx").on(t.linkedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("ucsi_ids_ucsi_id_idx").on(t.ucsiId),
    index("ucsi_ids_user_id_idx").on(t.userId),
    check("ucsi_ids_type_check", oneOf(t.type, UCSI_ID_TYPES)),
    check("ucsi_ids_status_check", oneOf(t.status, UCSI_ID_STATUSES)),
    check(
      "ucsi_ids_format_check",
      sql`(${t.type} = 'student' and ${t.ucsiId} ~ '^[0-9]{10}$')
        or (${t.type} = 'staff' and ${t.ucsiId} ~ '^S[0-9]{5}$')`,
    ),
    check("ucsi_ids_revoked_check", sql`(${t.status} = 'revoked') = (${t.revokedAt} is not null)`),
  ],
);

/**
 * What app users report (User Report): handled by an assignee through open → in progress →
 * resolved or rejected (and reopened). Resolving a transaction dispute may refund the disputed
 * payment: the refund's ledger row is kept here.
 */
export const userReports = pgTable(
  "user_reports",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    reporterId: integer("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    type: text("type", { enum: REPORT_TYPES }).notNull(),
    subject: text("subject").notNull(),
    description: text("description").notNull(),
    paymentId: integer("payment_id").references(() => walletTransactions.id, {
      onDelete: "restrict",
    }),
    businessId: integer("business_id").references(() => businesses.id, { onDelete: "restrict" }),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("open"),
    assigneeId: integer("assignee_id").references(() => administrators.id, {
      onDelete: "set null",
    }),
    /** The resolution or rejection note. */
    note: text("note"),
    refundId: integer("refund_id").references(() => walletTransactions.id, {
      onDelete: "restrict",
    }),
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date" }),
    closedBy: integer("closed_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("user_reports_created_at_idx").on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("user_reports_status_created_at_idx").on(t.status, t.createdAt.desc().nullsFirst()),
    index("user_reports_assignee_id_idx").on(t.assigneeId),
    index("user_reports_reporter_id_idx").on(t.reporterId),
    index("user_reports_payment_id_idx").on(t.paymentId),
    check("user_reports_type_check", oneOf(t.type, REPORT_TYPES)),
    check("user_reports_status_check", oneOf(t.status, REPORT_STATUSES)),
    check(
      "user_reports_closed_check",
      sql`(${t.status} in ('resolved', 'rejected')) = (${t.closedAt} is not null and ${t.note} is not null)`,
    ),
  ],
);

/**
 * UCSI Parking's car parks: where they are, how many bays, and what an hour and a day cost. A
 * rate change applies to sessions that start afterwards (each session keeps its own rates).
 */
export const parkingLots = pgTable(
  "parking_lots",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    name: text("name").notNull(),
    /** Short upper-case code on the signs and gates (unique). */
    code: text("code").notNull().unique("parking_lots_code_key"),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    capacity: integer("capacity").notNull(),
    hourlyRateSen: integer("hourly_rate_sen").notNull(),
    dailyCapSen: integer("daily_cap_sen").notNull(),
    status: text("status", { enum: PARKING_LOT_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("parking_lots_status_check", oneOf(t.status, PARKING_LOT_STATUSES)),
    check("parking_lots_latitude_check", sql`${t.latitude} between -90 and 90`),
    check("parking_lots_longitude_check", sql`${t.longitude} between -180 and 180`),
    check("parking_lots_capacity_check", sql`${t.capacity} > 0`),
    check(
      "parking_lots_rates_check",
      sql`${t.hourlyRateSen} >= 0 and ${t.dailyCapSen} >= ${t.hourlyRateSen}`,
    ),
  ],
);

/**
 * A car's stay in a lot: the rates in force when it entered, and when it ends the fee charged to
 * the driver's wallet (its payment row in the ledger), or a cancellation.
 */
export const parkingSessions = pgTable(
  "parking_sessions",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    lotId: integer("lot_id")
      .notNull()
      .references(() => parkingLots.id, { onDelete: "restrict" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    plate: text("plate").notNull(),
    enteredAt: timestamp("entered_at", { withTimezone: true, mode: "date" }).notNull(),
    exitedAt: timestamp("exited_at", { withTimezone: true, mode: "date" }),
    hourlyRateSen: integer("hourly_rate_sen").notNull(),
    dailyCapSen: integer("daily_cap_sen").notNull(),
    feeSen: integer("fee_sen"),
    status: text("status", { enum: PARKING_SESSION_STATUSES }).notNull().default("active"),
    paymentId: integer("payment_id").references(() => walletTransactions.id, {
      onDelete: "restrict",
    }),
    remark: text("remark"),
    /** Who ended or cancelled it by hand: no foreign key, as in audit_log. */
    adminId: integer("admin_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A car is in at most one lot at a time.
    uniqueIndex("parking_sessions_active_plate_key")
      .on(t.plate)
      .where(sql`${t.status} = 'active'`),
    index("parking_sessions_entered_at_idx").on(
      t.enteredAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("parking_sessions_lot_id_status_idx").on(t.lotId, t.status),
    index("parking_sessions_user_id_idx").on(t.userId),
    check("parking_sessions_status_check", oneOf(t.status, PARKING_SESSION_STATUSES)),
    check(
      "parking_sessions_exit_check",
      sql`(${t.status} = 'active') = (${t.exitedAt} is null) and ${t.exitedAt} >= ${t.enteredAt}`,
    ),
    check(
      "parking_sessions_fee_check",
      sql`(${t.status} = 'completed') = (${t.feeSen} is not null) and ${t.feeSen} >= 0`,
    ),
  ],
);

/**
 * Content Management: the help centre's articles, in both languages. Bodies are HTML cleaned by
 * the server's allow-list (server/content/sanitize.ts) before they are stored; `position` orders
 * an article within its category.
 */
export const helpArticles = pgTable(
  "help_articles",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    category: text("category", { enum: HELP_CATEGORIES }).notNull(),
    position: integer("position").notNull(),
    titleEn: text("title_en").notNull(),
    titleZh: text("title_zh").notNull(),
    bodyEn: text("body_en").notNull(),
    bodyZh: text("body_zh").notNull(),
    status: text("status", { enum: HELP_ARTICLE_STATUSES }).notNull().default("draft"),
    /** Who wrote it first (no foreign key: the article outlives the administrator). */
    authorId: integer("author_id"),
    publishedAt: timestamp("published_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("help_articles_category_position_idx").on(t.category, t.position, t.id),
    check("help_articles_category_check", oneOf(t.category, HELP_CATEGORIES)),
    check("help_articles_status_check", oneOf(t.status, HELP_ARTICLE_STATUSES)),
  ],
);

/**
 * Images in help articles and announcements, kept in the database as rider documents are (every
 * instance serves every image); the id is random, never the uploader's file name.
 */
export const contentImages = pgTable("content_images", {
  id: text("id").primaryKey(),
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  content: bytea("content").notNull(),
  uploadedBy: integer("uploaded_by"),
  createdAt: createdAt(),
});

/** Announcement > Merchant Announcement: the state (scheduled, live, expired) is the dates'. */
export const merchantAnnouncements = pgTable(
  "merchant_announcements",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    titleEn: text("title_en").notNull(),
    titleZh: text("title_zh").notNull(),
    bodyEn: text("body_en").notNull(),
    bodyZh: text("body_zh").notNull(),
    audience: text("audience", { enum: ANNOUNCEMENT_AUDIENCES }).notNull(),
    /** The business categories of an audience `categories` (empty for `all`). */
    categories: jsonb("categories").$type<string[]>().notNull().default([]),
    publishAt: timestamp("publish_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    pinned: boolean("pinned").notNull().default(false),
    authorId: integer("author_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("merchant_announcements_publish_at_idx").on(t.publishAt.desc(), t.id.desc()),
    check("merchant_announcements_audience_check", oneOf(t.audience, ANNOUNCEMENT_AUDIENCES)),
    check(
      "merchant_announcements_dates_check",
      sql`${t.expiresAt} is null or ${t.expiresAt} > ${t.publishAt}`,
    ),
  ],
);

/**
 * The job queue (server/jobs/queue.ts): work that must happen once, at or after `run_at`, on
 * whichever server instance claims it first (FOR UPDATE SKIP LOCKED). A claim holds the job until
 * `locked_until`; a run extends it at every step, and a crashed holder's job is claimed again once
 * it lapses. A finished job is deleted in the same transaction as its last step.
 */
export const jobQueue = pgTable(
  "job_queue",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text("queue").notNull(),
    /** At most one job per key (one delivery per notification). */
    key: text("key").notNull().unique("job_queue_key_key"),
    payload: jsonb("payload").notNull(),
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [index("job_queue_queue_run_at_idx").on(t.queue, t.runAt)],
);

/**
 * Announcement > App Notification: a message to app users by role, delivered at `send_at` in
 * steps of users by id; `delivered_through` is the last user id a committed step covered.
 */
export const appNotifications = pgTable(
  "app_notifications",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    titleEn: text("title_en").notNull(),
    titleZh: text("title_zh").notNull(),
    bodyEn: text("body_en").notNull(),
    bodyZh: text("body_zh").notNull(),
    audience: text("audience", { enum: USER_ROLES }).array().notNull(),
    sendAt: timestamp("send_at", { withTimezone: true, mode: "date" }).notNull(),
    status: text("status", { enum: APP_NOTIFICATION_STATUSES }).notNull().default("scheduled"),
    recipientCount: integer("recipient_count").notNull().default(0),
    deliveredThrough: integer("delivered_through").notNull().default(0),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdBy: integer("created_by").references(() => administrators.id, { onDelete: "set null" }),
    ...review(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("app_notifications_created_at_idx").on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("app_notifications_status_send_at_idx").on(t.status, t.sendAt),
    check("app_notifications_status_check", oneOf(t.status, APP_NOTIFICATION_STATUSES)),
    check(
      "app_notifications_audience_check",
      sql`cardinality(${t.audience}) > 0 and ${t.audience} <@ array[${sql.raw(
        USER_ROLES.map((role) => `'${role}'`).join(", "),
      )}]::text[]`,
    ),
    check("app_notifications_sent_check", sql`(${t.status} = 'sent') = (${t.sentAt} is not null)`),
  ],
);

/** A user's inbox: one row per notification delivered to them, never two (the unique key). */
export const userNotifications = pgTable(
  "user_notifications",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    notificationId: integer("notification_id")
      .notNull()
      .references(() => appNotifications.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_notifications_notification_id_user_id_key").on(t.notificationId, t.userId),
    index("user_notifications_user_id_created_at_idx").on(t.userId, t.createdAt.desc()),
  ],
);

/**
 * Four eyes: a change a declared action or form would make, held until a second administrator
 * approves it (server/kit/four-eyes.ts). It keeps what the change is (module, action, record,
 * body), not a closure: approval runs the declared action again, guard and all. `before` holds
 * the record's fields the change touches as they were when it was asked for; approval refuses
 * (409) when they moved. A pending request past `expires_at` reads as expired at once; the
 * expiry job stores it so later.
 */
export const changeRequests = pgTable(
  "change_requests",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    reference: text("reference").notNull(),
    /** The declared module and its action's name (`create` / `edit` for its forms). */
    module: text("module").notNull(),
    action: text("action").notNull(),
    verb: text("verb").notNull(),
    /** The record it changes; null for a create form's new record. */
    recordId: integer("record_id"),
    /** What names the record in the console (its title field) when the request was made. */
    recordTitle: text("record_title"),
    body: jsonb("body").notNull(),
    reason: text("reason").notNull(),
    amountSen: bigint("amount_sen", { mode: "number" }),
    /** The record's fields the change touches, before and after, as a dry run found them. */
    before: jsonb("before"),
    after: jsonb("after"),
    /** The codes the checker must hold: the action's, and the declared checker's when named. */
    permission: integer("permission"),
    checkerPermission: integer("checker_permission"),
    /** Why it needs a second approver: `always`, or `above` the threshold it names (sen). */
    rule: text("rule").notNull(),
    thresholdSen: bigint("threshold_sen", { mode: "number" }),
    status: text("status").notNull().default("pending"),
    makerId: integer("maker_id").notNull(),
    checkerId: integer("checker_id"),
    remark: text("remark"),
    decidedAt: timestamp("decided_at", { withTimezone: true, mode: "date" }),
    /** The record a create form's approval made. */
    resultId: integer("result_id"),
    /** The last refusal of an approval (the record moved on, a rule refused), with its code. */
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    failedAt: timestamp("failed_at", { withTimezone: true, mode: "date" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("change_requests_reference_key").on(t.reference),
    index("change_requests_status_created_at_idx").on(
      t.status,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index("change_requests_created_at_idx").on(
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    /**
     * Pending approvals (the list's page 1 and its count, `GET /api/change-requests/counts`, the
     * expiry job's sweep): the pending requests only, newest first, carrying what the viewer's
     * scope and the expiry read, so each of them is an index-only scan of a few pages however
     * many requests were decided before (migration 0030; docs/four-eyes.md, "Expiry").
     */
    index("change_requests_pending_idx")
      .on(
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.expiresAt,
        t.makerId,
        t.permission,
        t.checkerPermission,
      )
      .where(sql`${t.status} = 'pending'`),
    index("change_requests_record_idx").on(t.module, t.recordId),
    index("change_requests_maker_id_idx").on(t.makerId),
    check("change_requests_status_check", oneOf(t.status, CHANGE_REQUEST_STATUSES)),
    check("change_requests_rule_check", oneOf(t.rule, ["always", "above"])),
    check(
      "change_requests_decided_check",
      sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`,
    ),
  ],
);

/**
 * A business's documents (its registration certificate, its bank's letter): the content in the
 * database like riders' documents, so every server instance serves every document. The id is
 * random; the name is the client's, cleaned, for display only; the type is the one detected from
 * the content. `uploaded_by` is the administrator who added it on the business's page, null when
 * it came with the merchant's application.
 */
export const businessDocuments = pgTable(
  "business_documents",
  {
    id: text("id").primaryKey(),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: BUSINESS_DOCUMENT_KINDS }).notNull(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    content: bytea("content").notNull(),
    uploadedBy: integer("uploaded_by").references((): AnyPgColumn => administrators.id, {
      onDelete: "set null",
    }),
    createdAt: createdAt(),
  },
  (t) => [
    index("business_documents_business_id_idx").on(t.businessId, t.createdAt),
    check("business_documents_kind_check", oneOf(t.kind, BUSINESS_DOCUMENT_KINDS)),
    check("business_documents_content_type_check", oneOf(t.contentType, DOCUMENT_CONTENT_TYPES)),
    check("business_documents_size_check", sql`${t.size} between 1 and 5242880`),
  ],
);

/**
 * The heads of the audit trail's chain shards (docs/integrity.md): a writer takes whichever shard
 * no other transaction holds (FOR UPDATE SKIP LOCKED), links its entry after the shard's head and
 * moves the head, in the entry's transaction; concurrent writers chain on different shards.
 */
export const chainHeads = pgTable(
  "chain_heads",
  {
    chain: text("chain").notNull(),
    shard: integer("shard").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull().default(0),
    hash: bytea("hash").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.chain, t.shard] })],
);

/**
 * Each verification of the chains (the daily job, or an administrator's `GET`): what it walked,
 * the heads it found, and the first broken link, signed so a later run can tell its own record.
 */
export const chainVerifications = pgTable(
  "chain_verifications",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    /** `ok` or `broken`. */
    status: text("status").notNull(),
    rowsChecked: bigint("rows_checked", { mode: "number" }).notNull(),
    /** The head hash of every chain walked, by chain and shard (hex). */
    heads: jsonb("heads").notNull(),
    /** The first broken link of each broken chain: table, row id, and what differs. */
    breaks: jsonb("breaks").notNull(),
    /** The administrator who asked; null for the daily job. */
    adminId: integer("admin_id"),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }).notNull(),
    signature: text("signature").notNull(),
  },
  (t) => [
    index("chain_verifications_started_at_idx").on(t.startedAt.desc().nullsFirst()),
    check("chain_verifications_status_check", oneOf(t.status, ["ok", "broken"])),
  ],
);

/**
 * One business day's reconciliation (docs/reconciliation.md): whether the money added up, each
 * check's figures and differences, and, for a red day, who looked into it and what they found.
 * Run by the close-of-day job, or again on demand by Finance; a rerun replaces the day's result.
 */
export const reconciliationDays = pgTable(
  "reconciliation_days",
  {
    version: version(),
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    day: date("day", { mode: "string" }).notNull(),
    /** `passed` (green) or `failed` (red). */
    status: text("status").notNull(),
    /** Every check: its name, passed or not, its figures and the rows that differ (bounded). */
    checks: jsonb("checks").notNull(),
    /** The sum of all balances at the day's close (sen). */
    closingFloatSen: bigint("closing_float_sen", { mode: "number" }).notNull(),
    failedChecks: integer("failed_checks").notNull().default(0),
    /** The administrator who ran it on demand; null for the job. */
    ranBy: integer("ran_by"),
    ranAt: timestamp("ran_at", { withTimezone: true, mode: "date" }).notNull(),
    investigatedBy: integer("investigated_by"),
    investigatedAt: timestamp("investigated_at", { withTimezone: true, mode: "date" }),
    investigationRemark: text("investigation_remark"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("reconciliation_days_day_key").on(t.day),
    index("reconciliation_days_day_idx").on(t.day.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check("reconciliation_days_status_check", oneOf(t.status, ["passed", "failed"])),
  ],
);

/**
 * A list's saved view (docs/saved-views.md): its filters, sort, columns, their widths and page
 * size under a name, for its owner or shared with every administrator holding the module's
 * permission. `state` is the list's state as the console keeps it, checked against the module's
 * declaration when saved and again when opened (a field that no longer exists is dropped).
 */
export const savedViews = pgTable(
  "saved_views",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => administrators.id, { onDelete: "cascade" }),
    /** The declared module's name (its Refine resource). */
    module: text("module").notNull(),
    name: text("name").notNull(),
    shared: boolean("shared").notNull().default(false),
    state: jsonb("state").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("saved_views_owner_module_name_key").on(t.ownerId, t.module, sql`lower(${t.name})`),
    index("saved_views_module_shared_idx").on(t.module, t.shared),
  ],
);

/** The view a list opens with for one administrator: one of their own, or a shared one. */
export const savedViewDefaults = pgTable(
  "saved_view_defaults",
  {
    adminId: integer("admin_id")
      .notNull()
      .references(() => administrators.id, { onDelete: "cascade" }),
    module: text("module").notNull(),
    viewId: integer("view_id")
      .notNull()
      .references(() => savedViews.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.module] })],
);
