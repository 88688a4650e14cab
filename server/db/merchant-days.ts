/**
 * The Merchant Transaction Summary's table (merchant_days) rebuilt from the ledger: what the
 * ledger's payments and refunds add to it one by one (server/services/ledger.ts), in one
 * set-based statement, for seeds that write the ledger directly and for a change of
 * BUSINESS_TIMEZONE (`npm run seed -- --rebuild-summary`). Payments count when they succeeded
 * (`success`, or `reversed`: refunded since), refunds when they succeeded.
 */
import { sql } from "drizzle-orm";

import { businessTimeZone } from "../business-day";
import type { DbOrTx } from "./index";

/**
 * The ledger rows a merchant's figures count (of a table aliased `alias`): payments that
 * succeeded (`success`, or `reversed`: refunded since) and refunds that succeeded.
 */
export const countedRows = (alias: string) => {
  const t = sql.raw(alias);
  return sql`((${t}.type = 'payment' and ${t}.status in ('success', 'reversed'))
              or (${t}.type = 'refund' and ${t}.status = 'success'))`;
};

/**
 * A merchant's figures over counted rows (aggregates of a table aliased `alias`), as the columns
 * payment_count, gross_sen, refund_count, refund_sen, fee_sen: the summary's and a settlement's.
 */
export const merchantFigures = (alias: string) => {
  const t = sql.raw(alias);
  return sql`count(*) filter (where ${t}.type = 'payment')::int as payment_count,
    coalesce(sum(-${t}.amount_sen) filter (where ${t}.type = 'payment'), 0) as gross_sen,
    count(*) filter (where ${t}.type = 'refund')::int as refund_count,
    coalesce(sum(${t}.amount_sen) filter (where ${t}.type = 'refund'), 0) as refund_sen,
    coalesce(sum(${t}.fee_sen) filter (where ${t}.type = 'payment'), 0) as fee_sen`;
};

export async function rebuildMerchantDays(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from merchant_days`);
  await db.execute(sql`
    insert into merchant_days (business_id, day, payment_count, gross_sen, refund_count,
                               refund_sen, fee_sen)
    select t.business_id, (t.created_at at time zone ${businessTimeZone()})::date as day,
           ${merchantFigures("t")}
    from wallet_transactions t
    where t.business_id is not null and ${countedRows("t")}
    group by 1, 2`);
}
