/**
 * The wallet ledger (docs/domain.md, "The ledger"). A wallet's balance changes only here,
 * together with its ledger row, in the caller's transaction, under the wallet's row lock; the
 * database keeps the ledger append-only. Every top-up obeys the wallet policy in force, every
 * payment its daily limit; each refusal has its own code.
 */
import { randomBytes } from "node:crypto";

import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";

import type { LedgerChannel, LedgerType } from "../../src/shared/domain";
import { feeOfPayment } from "../../src/shared/money";
import { businessDayOf, businessDayStart, businessTimeZone } from "../business-day";
import type { DbOrTx, Tx } from "../db";
import {
  businesses,
  merchantDays,
  users,
  walletPolicies,
  wallets,
  walletTransactions,
} from "../db/schema";
import { reopenDayOf } from "../db/closed-days";
import {
  rollUpCtes,
  rollUpKinds,
  rollUpOf,
  uncountTopUp,
  type RollUpKind,
} from "../db/ledger-rollups";
import { preparedQuery } from "../db/prepared";
import { conflict, HttpError } from "../errors";

export type LedgerRow = typeof walletTransactions.$inferSelect;
export type WalletPolicyRow = typeof walletPolicies.$inferSelect;

/** The policy in force: the newest version (migration 0008 writes the first). */
export async function currentPolicy(db: DbOrTx): Promise<WalletPolicyRow> {
  const [policy] = await db.select().from(walletPolicies).orderBy(desc(walletPolicies.id)).limit(1);
  if (!policy) throw new Error("No wallet policy is in force (migration 0008 writes the first)");
  return policy;
}

/** What a top-up or a payment checks of the policy in force. */
type Limits = Pick<
  WalletPolicyRow,
  "minTopUpSen" | "maxTopUpSen" | "dailyTopUpLimitSen" | "maxBalanceSen" | "dailyPaymentLimitSen"
>;

/** A refusal by the policy: 400 with the rule's code and the limit in sen (the console words it). */
function policyRefusal(code: string, what: string, limitSen: number, data: object = {}) {
  return new HttpError(400, `${what} (${limitSen} sen)`, code, { limitSen, ...data });
}

/** A reference no other ledger row has: a prefix, the day, and 10 random characters. */
export function newReference(prefix: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  const random = randomBytes(8).toString("base64url").replace(/[-_]/g, "").slice(0, 10);
  return `${prefix}${day}${random.toUpperCase().padEnd(10, "0")}`;
}

/** A search term that is a whole reference of `newReference(prefix)` (any case), as stored. */
export function wholeReference(prefix: string, term: string): string | undefined {
  const upper = term.toUpperCase();
  return upper.startsWith(prefix) && /^\d{8}[A-Z0-9]{10}$/.test(upper.slice(prefix.length))
    ? upper
    : undefined;
}

interface Wallet {
  userId: number;
  accountNumber: string;
  balanceSen: number;
  status: string;
}

type WalletKey = { userId: number } | { accountNumber: string };
type KeyKind = "userId" | "accountNumber";

const walletSelection = {
  userId: wallets.userId,
  accountNumber: users.accountNumber,
  balanceSen: wallets.balanceSen,
  status: wallets.status,
};

/** A statement prepared for each kind of wallet key, run with the key's value as `key`. */
function perKey<R>(
  build: (
    db: DbOrTx,
    by: KeyKind,
  ) => { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> } },
) {
  const statements = {
    userId: preparedQuery((db) => build(db, "userId")),
    accountNumber: preparedQuery((db) => build(db, "accountNumber")),
  };
  return (db: DbOrTx, key: WalletKey) =>
    "userId" in key
      ? statements.userId(db, { key: key.userId })
      : statements.accountNumber(db, { key: key.accountNumber });
}

/** The wallet of the user whose id or account number is `key`, locked for the transaction. */
function walletForUpdate<Q extends PgSelect>(query: Q, by: KeyKind): Q {
  const key = sql.placeholder("key");
  return (query.innerJoin(users, eq(users.id, wallets.userId)) as unknown as Q)
    .where(by === "userId" ? eq(wallets.userId, key) : eq(users.accountNumber, key))
    .for("update", { of: wallets });
}

const lockStatement = perKey((db, by) =>
  walletForUpdate(db.select(walletSelection).from(wallets).$dynamic(), by),
);

/** Locks a user's wallet for the rest of the transaction (undefined: no wallet has the key). */
async function lockWallet(tx: Tx, key: WalletKey) {
  const [wallet] = await lockStatement(tx, key);
  return wallet as Wallet | undefined;
}

const lockUnderPolicyStatement = perKey((db, by) => {
  const policy = db
    .select()
    .from(walletPolicies)
    .orderBy(desc(walletPolicies.id))
    .limit(1)
    .as("policy");
  const limits = {
    minTopUpSen: policy.minTopUpSen,
    maxTopUpSen: policy.maxTopUpSen,
    dailyTopUpLimitSen: policy.dailyTopUpLimitSen,
    maxBalanceSen: policy.maxBalanceSen,
    dailyPaymentLimitSen: policy.dailyPaymentLimitSen,
  };
  return walletForUpdate(
    db
      .select({ ...walletSelection, limits })
      .from(wallets)
      .innerJoinLateral(policy, sql`true`)
      .$dynamic(),
    by,
  );
});

/**
 * Locks a user's wallet, reading the policy in force in the same statement (one round trip less
 * on every top-up and payment). The policy is read as of the statement's start, before any wait
 * for the lock, as when it was read first on its own. Without the wallet, the policy alone.
 */
async function lockWalletUnderPolicy(
  tx: Tx,
  key: WalletKey,
): Promise<{ limits: Limits; wallet?: Wallet }> {
  const [row] = await lockUnderPolicyStatement(tx, key);
  if (!row) return { limits: await currentPolicy(tx) };
  const { limits: found, ...wallet } = row;
  return { limits: found, wallet: wallet as Wallet };
}

interface Entry {
  type: LedgerType;
  amountSen: number;
  channel?: LedgerChannel | null;
  businessId?: number | null;
  agentUserId?: number | null;
  reference: string;
  reversesId?: number | null;
  remark?: string | null;
  adminId?: number | null;
  feeSen?: number | null;
  createdAt?: Date;
}

/** The previous link of a wallet's first ledger row. */
const ZERO_HASH = sql.raw(`'\\x${"00".repeat(32)}'::bytea`);

/** The columns of a ledger row that an entry may leave out (null when it does). */
const optionalColumns = [
  "channel",
  "businessId",
  "agentUserId",
  "reversesId",
  "remark",
  "adminId",
  "feeSen",
] as const;

/**
 * The statement that appends a row to a locked wallet's ledger: the wallet's balance set to the
 * row's balance after, and the row rolled up (rollUpCtes), as CTEs of the row's insert.
 */
const appendStatements = Object.fromEntries(
  rollUpKinds.map((kind) => [
    kind,
    preparedQuery((db) => {
      const value = (name: string) => sql.placeholder(name);
      // The row's id, drawn first: the chain's link covers it (docs/integrity.md).
      const drawn = db
        .$with("drawn")
        .as(
          db
            .select({ id: sql<number>`nextval('wallet_transactions_id_seq')`.as("id") })
            .from(sql`(select 1) as one`),
        );
      // The wallet's head moves to SHA-256(its previous head || the row's digest) in the update
      // that moves its balance, under the wallet's row lock (the caller holds it).
      const balance = db.$with("balance").as(
        db
          .update(wallets)
          .set({
            balanceSen: sql`${value("balanceAfterSen")}::bigint`,
            ledgerHash: sql`sha256(coalesce(${wallets.ledgerHash}, ${ZERO_HASH}) || ledger_digest(
              (select id from drawn), ${value("userId")}::int, ${value("type")}::text,
              ${value("amountSen")}::bigint, ${value("balanceAfterSen")}::bigint,
              ${value("channel")}::text, ${value("businessId")}::int,
              ${value("agentUserId")}::int, ${value("reference")}::text,
              ${value("reversesId")}::int, ${value("feeSen")}::bigint, ${value("remark")}::text,
              ${value("adminId")}::int, ${value("searchText")}::text,
              ${value("createdAt")}::timestamptz))`,
          })
          .where(eq(wallets.userId, value("userId")))
          .returning({ userId: wallets.userId, ledgerHash: wallets.ledgerHash }),
      );
      return db
        .with(drawn, balance, ...rollUpCtes(db, kind))
        .insert(walletTransactions)
        .overridingSystemValue()
        .values({
          id: sql`(select id from drawn)`,
          hash: sql`(select ledger_hash from balance)`,
          type: sql`${value("type")}::text`,
          amountSen: sql`${value("amountSen")}::bigint`,
          userId: sql`${value("userId")}::int`,
          balanceAfterSen: sql`${value("balanceAfterSen")}::bigint`,
          reference: sql`${value("reference")}::text`,
          searchText: sql`${value("searchText")}::text`,
          createdAt: sql`${value("createdAt")}::timestamptz`,
          channel: sql`${value("channel")}::text`,
          businessId: sql`${value("businessId")}::int`,
          agentUserId: sql`${value("agentUserId")}::int`,
          reversesId: sql`${value("reversesId")}::int`,
          remark: sql`${value("remark")}::text`,
          adminId: sql`${value("adminId")}::int`,
          feeSen: sql`${value("feeSen")}::bigint`,
        })
        .returning();
    }),
  ]),
) as Record<RollUpKind, (db: DbOrTx, values: Record<string, unknown>) => Promise<LedgerRow[]>>;

/**
 * Appends one row to a locked wallet's ledger, sets its balance to the row's balance after and
 * rolls the row up for Statistic, in one statement. A balance that would go below zero is refused
 * (409 INSUFFICIENT_BALANCE).
 */
async function append(tx: Tx, wallet: Wallet, entry: Entry): Promise<LedgerRow> {
  const balanceAfterSen = wallet.balanceSen + entry.amountSen;
  if (balanceAfterSen < 0) {
    throw conflict(
      "INSUFFICIENT_BALANCE",
      `The wallet holds ${wallet.balanceSen} sen, less than ${-entry.amountSen} sen`,
      { balanceSen: wallet.balanceSen },
    );
  }
  const createdAt = entry.createdAt ?? new Date();
  const rollUp = rollUpOf({ ...entry, userId: wallet.userId, createdAt });
  // A row dated on a day already over (a seed writing the past) reopens that day first.
  await reopenDayOf(tx, createdAt);
  const [row] = await appendStatements[rollUp.kind](tx, {
    ...Object.fromEntries(optionalColumns.map((column) => [column, entry[column] ?? null])),
    ...rollUp.values,
    type: entry.type,
    amountSen: entry.amountSen,
    userId: wallet.userId,
    balanceAfterSen,
    reference: entry.reference,
    searchText: `${entry.reference}\u001f${wallet.accountNumber}`.toLowerCase(),
    createdAt,
  });
  wallet.balanceSen = balanceAfterSen;
  return row!;
}

/**
 * The sum (sen, positive) of a user's rows of a type that count against a daily limit
 * (successful or still pending) on the business day of `at`: days in BUSINESS_TIMEZONE.
 */
async function dayTotal(tx: Tx, userId: number, type: LedgerType, at: Date): Promise<number> {
  const [row] = await dayTotalStatement(tx, {
    userId,
    type,
    day: businessDayOf(at),
    zone: businessTimeZone(),
  });
  return Number(row?.total ?? 0);
}

const dayTotalStatement = preparedQuery((db) => {
  const start = businessDayStart(sql.placeholder("day"), sql`${sql.placeholder("zone")}::text`);
  return db
    .select({ total: sql<string>`coalesce(sum(abs(${walletTransactions.amountSen})), 0)` })
    .from(walletTransactions)
    .where(
      and(
        eq(walletTransactions.userId, sql.placeholder("userId")),
        eq(walletTransactions.type, sql`${sql.placeholder("type")}::text`),
        inArray(walletTransactions.status, ["success", "pending"]),
        gte(walletTransactions.createdAt, start),
        lt(walletTransactions.createdAt, sql`${start} + interval '1 day'`),
      ),
    );
});

export interface TopUp {
  amountSen: number;
  /** When it happens (default: now); its business day is the one its daily limit counts. */
  at?: Date;
  channel: LedgerChannel;
  agentUserId?: number | null;
  remark?: string | null;
  adminId?: number | null;
}

/**
 * Credits a wallet under the policy in force: the amount between the minimum and maximum top-up,
 * today's top-ups within the daily limit, the balance within the maximum. Refusals: 400
 * POLICY_MIN_TOP_UP, POLICY_MAX_TOP_UP, POLICY_DAILY_TOP_UP, POLICY_MAX_BALANCE; an unknown
 * account 400 UNKNOWN_ACCOUNT; a frozen or dormant wallet 409 WALLET_NOT_ACTIVE.
 */
export async function topUpWallet(tx: Tx, account: WalletKey, topUp: TopUp): Promise<LedgerRow> {
  const { limits: policy, wallet } = await lockWalletUnderPolicy(tx, account);
  if (topUp.amountSen < policy.minTopUpSen) {
    throw policyRefusal(
      "POLICY_MIN_TOP_UP",
      "A top-up must be at least the minimum",
      policy.minTopUpSen,
    );
  }
  if (topUp.amountSen > policy.maxTopUpSen) {
    throw policyRefusal(
      "POLICY_MAX_TOP_UP",
      "A top-up must be at most the maximum",
      policy.maxTopUpSen,
    );
  }
  if (!wallet) {
    throw new HttpError(400, "No wallet has this account number", "UNKNOWN_ACCOUNT");
  }
  if (wallet.status !== "active") {
    throw conflict("WALLET_NOT_ACTIVE", `The wallet is ${wallet.status}`, {
      walletStatus: wallet.status,
    });
  }
  const at = topUp.at ?? new Date();
  const today = await dayTotal(tx, wallet.userId, "top_up", at);
  if (today + topUp.amountSen > policy.dailyTopUpLimitSen) {
    throw policyRefusal(
      "POLICY_DAILY_TOP_UP",
      "Today's top-ups would exceed the daily limit",
      policy.dailyTopUpLimitSen,
      { todaySen: today },
    );
  }
  if (wallet.balanceSen + topUp.amountSen > policy.maxBalanceSen) {
    throw policyRefusal(
      "POLICY_MAX_BALANCE",
      "The balance would exceed the maximum",
      policy.maxBalanceSen,
      { balanceSen: wallet.balanceSen },
    );
  }
  return append(tx, wallet, {
    type: "top_up",
    amountSen: topUp.amountSen,
    channel: topUp.channel,
    agentUserId: topUp.agentUserId ?? null,
    reference: newReference("TU"),
    remark: topUp.remark ?? null,
    adminId: topUp.adminId ?? null,
    createdAt: at,
  });
}

/**
 * Takes a top-up back: a negative `reversal` row pointing at it, and the top-up marked reversed.
 * The caller has locked the top-up and checked it succeeded; a balance that would go below zero
 * is refused (409 INSUFFICIENT_BALANCE); a second reversal breaks the unique `reverses_id`.
 */
export async function reverseTopUp(
  tx: Tx,
  topUp: Pick<LedgerRow, "id" | "userId" | "amountSen" | "reference">,
  by: { adminId: number; remark: string },
): Promise<LedgerRow> {
  const wallet = await lockWallet(tx, { userId: topUp.userId });
  if (!wallet) throw new Error(`The wallet of user ${topUp.userId} is missing`);
  const reversal = await append(tx, wallet, {
    type: "reversal",
    amountSen: -topUp.amountSen,
    reference: `RV${topUp.reference}`,
    reversesId: topUp.id,
    remark: by.remark,
    adminId: by.adminId,
  });
  const [reversed] = await tx
    .update(walletTransactions)
    .set({ status: "reversed" })
    .where(eq(walletTransactions.id, topUp.id))
    .returning({ channel: walletTransactions.channel, at: walletTransactions.createdAt });
  // It no longer counts among its day's top-ups (its user stays active that day).
  await uncountTopUp(tx, { ...topUp, ...reversed! });
  return reversal;
}

/**
 * Adds a payment or a refund to its business's day in the summary (merchant_days), in the
 * caller's transaction: the row of that business and business day is created or incremented.
 */
async function addToMerchantDay(
  tx: Tx,
  businessId: number,
  at: Date,
  figures: { payment: { amountSen: number; feeSen: number } } | { refundSen: number },
) {
  const values =
    "payment" in figures
      ? {
          paymentCount: 1,
          grossSen: figures.payment.amountSen,
          feeSen: figures.payment.feeSen,
          refundCount: 0,
          refundSen: 0,
        }
      : { paymentCount: 0, grossSen: 0, feeSen: 0, refundCount: 1, refundSen: figures.refundSen };
  const add = (column: keyof typeof values) =>
    sql`${merchantDays[column]} + ${sql.raw(`excluded.${merchantDays[column].name}`)}`;
  await tx
    .insert(merchantDays)
    .values({ businessId, day: businessDayOf(at), ...values })
    .onConflictDoUpdate({
      target: [merchantDays.businessId, merchantDays.day],
      set: {
        paymentCount: add("paymentCount"),
        grossSen: add("grossSen"),
        feeSen: add("feeSen"),
        refundCount: add("refundCount"),
        refundSen: add("refundSen"),
      },
    });
}

/**
 * Takes a payment from a wallet, under its lock: the wallet active (409 WALLET_NOT_ACTIVE),
 * today's payments within the policy's daily limit (400 POLICY_DAILY_PAYMENT), the balance
 * enough (409 INSUFFICIENT_BALANCE).
 */
async function debitPayment(
  tx: Tx,
  userId: number,
  amountSen: number,
  entry: Omit<Entry, "type" | "amountSen">,
): Promise<LedgerRow> {
  const { limits: policy, wallet } = await lockWalletUnderPolicy(tx, { userId });
  if (!wallet) throw new HttpError(400, "No wallet for this user", "UNKNOWN_ACCOUNT");
  if (wallet.status !== "active") {
    throw conflict("WALLET_NOT_ACTIVE", `The wallet is ${wallet.status}`, {
      walletStatus: wallet.status,
    });
  }
  const today = await dayTotal(tx, wallet.userId, "payment", entry.createdAt ?? new Date());
  if (today + amountSen > policy.dailyPaymentLimitSen) {
    throw policyRefusal(
      "POLICY_DAILY_PAYMENT",
      "Today's payments would exceed the daily limit",
      policy.dailyPaymentLimitSen,
      { todaySen: today },
    );
  }
  return append(tx, wallet, { ...entry, type: "payment", amountSen: -amountSen });
}

/**
 * A parking fee charged to the driver's wallet: a payment to no business (the university
 * collects it; no merchant fee), under the same rules as any payment (debitPayment).
 */
export async function payParkingFee(
  tx: Tx,
  fee: {
    userId: number;
    amountSen: number;
    remark?: string | null;
    adminId?: number | null;
    at?: Date;
  },
): Promise<LedgerRow> {
  const at = fee.at ?? new Date();
  return debitPayment(tx, fee.userId, fee.amountSen, {
    reference: newReference("PK", at),
    feeSen: 0,
    remark: fee.remark ?? null,
    adminId: fee.adminId ?? null,
    createdAt: at,
  });
}

/**
 * A payment from a wallet to a business (the wallet app's call; the console only reads them):
 * to an approved business (409 BUSINESS_NOT_APPROVED), within the balance (409
 * INSUFFICIENT_BALANCE) and the policy's daily payment limit (400 POLICY_DAILY_PAYMENT). Its fee
 * is the business's rate in force now, rounded half up (feeOfPayment), kept on the row.
 */
export async function payFromWallet(
  tx: Tx,
  payment: { userId: number; businessId: number; amountSen: number; at?: Date },
): Promise<LedgerRow> {
  const [business] = await tx
    .select({ status: businesses.status, feeRateBp: businesses.feeRateBp })
    .from(businesses)
    .where(eq(businesses.id, payment.businessId))
    .for("key share");
  if (!business) throw new HttpError(400, "No business has this id", "UNKNOWN_BUSINESS");
  if (business.status !== "approved") {
    throw conflict("BUSINESS_NOT_APPROVED", `The business is ${business.status}`, {
      status: business.status,
    });
  }
  const at = payment.at ?? new Date();
  const feeSen = feeOfPayment(payment.amountSen, business.feeRateBp);
  const row = await debitPayment(tx, payment.userId, payment.amountSen, {
    businessId: payment.businessId,
    reference: newReference("PY"),
    feeSen,
    createdAt: at,
  });
  await addToMerchantDay(tx, payment.businessId, at, {
    payment: { amountSen: payment.amountSen, feeSen },
  });
  return row;
}

/**
 * Gives (part of) a payment back to the payer: a positive `refund` row pointing at it, on the
 * business's summary of the refund's day (a settled payment's refund is carried into the
 * business's next settlement). Refunds of a payment together are at most its amount (409
 * REFUND_EXCEEDS_PAYMENT with what remains); a payment refunded in full becomes `reversed`
 * (409 ALREADY_REFUNDED afterwards). The payment is locked, so concurrent refunds queue.
 */
export async function refundPayment(
  tx: Tx,
  paymentId: number,
  refund: { amountSen: number; remark?: string | null; adminId?: number | null; at?: Date },
): Promise<LedgerRow> {
  if (!Number.isSafeInteger(refund.amountSen) || refund.amountSen <= 0) {
    throw new HttpError(400, "A refund is a positive whole number of sen", "VALIDATION_ERROR");
  }
  const [payment] = await tx
    .select()
    .from(walletTransactions)
    .where(and(eq(walletTransactions.id, paymentId), eq(walletTransactions.type, "payment")))
    .for("update");
  if (!payment) throw new HttpError(404, "No payment has this id", "NOT_FOUND");
  if (payment.status === "reversed") {
    throw conflict("ALREADY_REFUNDED", "The payment has been refunded in full");
  }
  if (payment.status !== "success") {
    throw conflict("PAYMENT_NOT_SUCCESSFUL", `The payment is ${payment.status}`, {
      status: payment.status,
    });
  }
  const [refunded] = await tx
    .select({ total: sql<string>`coalesce(sum(${walletTransactions.amountSen}), 0)` })
    .from(walletTransactions)
    .where(
      and(
        eq(walletTransactions.reversesId, paymentId),
        eq(walletTransactions.type, "refund"),
        eq(walletTransactions.status, "success"),
      ),
    );
  const remainingSen = -payment.amountSen - Number(refunded?.total ?? 0);
  if (refund.amountSen > remainingSen) {
    throw conflict(
      "REFUND_EXCEEDS_PAYMENT",
      `At most ${remainingSen} sen of this payment can be refunded`,
      { remainingSen },
    );
  }
  const wallet = await lockWallet(tx, { userId: payment.userId });
  if (!wallet) throw new Error(`The wallet of user ${payment.userId} is missing`);
  const at = refund.at ?? new Date();
  const row = await append(tx, wallet, {
    type: "refund",
    amountSen: refund.amountSen,
    businessId: payment.businessId,
    reference: newReference("RF", at),
    reversesId: payment.id,
    remark: refund.remark ?? null,
    adminId: refund.adminId ?? null,
    createdAt: at,
  });
  if (refund.amountSen === remainingSen) {
    await tx
      .update(walletTransactions)
      .set({ status: "reversed" })
      .where(eq(walletTransactions.id, payment.id));
  }
  if (payment.businessId !== null) {
    await addToMerchantDay(tx, payment.businessId, at, { refundSen: refund.amountSen });
  }
  return row;
}
