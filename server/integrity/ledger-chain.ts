/**
 * Links ledger rows in Node before a bulk insert (the demo seed), the same links the ledger's own
 * append and the insert trigger compute in SQL (docs/integrity.md): each wallet's rows in the
 * order given (their id order) after the wallet's head. The insert then carries each row's hash
 * (so the per-row trigger does not fire), and `moveHeads` sets the wallets' heads after it.
 */
import { inArray, sql } from "drizzle-orm";

import type { Tx } from "../db";
import type { walletTransactions } from "../db/schema";
import { wallets } from "../db/schema";
import { digestOf, LEDGER_FIELDS, linkOf, ZERO_HASH, type CanonicalRow } from "./canonical";

type LedgerValues = typeof walletTransactions.$inferInsert & { id: number };

/** A time as the chain's text: `YYYY-MM-DDTHH:MM:SS.ffffffZ` (UTC, microseconds). */
export const timeText = (at: Date): string => at.toISOString().replace("Z", "000Z");

const text = (value: number | string | null | undefined) =>
  value === null || value === undefined ? null : String(value);

/** A ledger row's fields as the chain's texts. */
export function ledgerTexts(row: LedgerValues): CanonicalRow {
  return {
    id: text(row.id),
    user_id: text(row.userId),
    type: text(row.type),
    amount_sen: text(row.amountSen),
    balance_after_sen: text(row.balanceAfterSen),
    channel: text(row.channel),
    business_id: text(row.businessId),
    agent_user_id: text(row.agentUserId),
    reference: text(row.reference),
    reverses_id: text(row.reversesId),
    fee_sen: text(row.feeSen),
    remark: text(row.remark),
    admin_id: text(row.adminId),
    search_text: text(row.searchText),
    created_at: row.createdAt instanceof Date ? timeText(row.createdAt) : null,
  };
}

/** Each row with its link; `moveHeads` sets the wallets' heads once the rows are in. */
export async function linkLedgerRows<T extends LedgerValues>(
  tx: Tx,
  rows: T[],
): Promise<{ rows: Array<T & { hash: Buffer }>; moveHeads: () => Promise<void> }> {
  const userIds = [...new Set(rows.map((row) => row.userId))];
  const heads = new Map<number, Buffer>();
  for (let first = 0; first < userIds.length; first += 10_000) {
    const found = await tx
      .select({ userId: wallets.userId, hash: wallets.ledgerHash })
      .from(wallets)
      .where(inArray(wallets.userId, userIds.slice(first, first + 10_000)))
      .for("update");
    for (const { userId, hash } of found) heads.set(userId, hash ?? ZERO_HASH);
  }
  const linked = rows.map((given) => {
    // The time is part of the link: set here rather than left to the column's default.
    const row = {
      ...given,
      createdAt: given.createdAt instanceof Date ? given.createdAt : new Date(),
    };
    const previous = heads.get(row.userId) ?? ZERO_HASH;
    const hash = linkOf(previous, digestOf(LEDGER_FIELDS, ledgerTexts(row)));
    heads.set(row.userId, hash);
    return { ...row, hash };
  });
  const moveHeads = async () => {
    const entries = [...heads];
    for (let first = 0; first < entries.length; first += 10_000) {
      const batch = entries.slice(first, first + 10_000);
      await tx.execute(sql`
        update wallets w set ledger_hash = decode(h.hex, 'hex')
        from unnest(${`{${batch.map(([id]) => id).join(",")}}`}::int[],
                    ${`{${batch.map(([, hash]) => hash.toString("hex")).join(",")}}`}::text[])
          as h(user_id, hex)
        where w.user_id = h.user_id`);
    }
  };
  return { rows: linked, moveHeads };
}
