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

export async function rebuildMerchantDays(db: DbOrTx): Promise<void> {
  await db.execute(sql`delete from merchant_days`);
  await db.execute(sql`
    insert into merchant_days (business_id, day, payment_count, gross_sen, refund_count,
                               refund_sen, fee_sen)
    select business_id, (created_at at time zone ${businessTimeZone()})::date,
           count(*) filter (where type = 'payment'),
           coalesce(sum(-amount_sen) filter (where type = 'payment'), 0),
           count(*) filter (where type = 'refund'),
           coalesce(sum(amount_sen) filter (where type = 'refund'), 0),
           coalesce(sum(fee_sen) filter (where type = 'payment'), 0)
    from wallet_transactions
    where business_id is not null
      and ((type = 'payment' and status in ('success', 'reversed'))
           or (type = 'refund' and status = 'success'))
    group by 1, 2`);
}
