/** Settlement runs (docs/modules.md) and each settlement's invoice. */
import { sql } from "drizzle-orm";

import type { SettlementDto, SettlementRunResult } from "../../../src/shared/modules/settlements";
import { businessDayOf, businessTimeZone } from "../../business-day";
import type { Db, Tx } from "../../db";
import { countedRows, merchantFigures } from "../../db/merchant-days";
import {
  auditLog,
  businesses,
  settlementItems,
  settlements,
  walletTransactions as ledger,
} from "../../db/schema";
import { HttpError, notFound } from "../../errors";
import type { BoundModule } from "../../kit/bind";
import { invoicePdf, type InvoiceInput } from "./invoice-pdf";

/** Runs wait for each other (one at a time on the whole database): a constant lock key. */
const RUN_LOCK_KEY = 735_001;
/** How long a settlement run's statement may take (it runs one at a time, under the lock). */
const SETTLEMENT_RUN_TIMEOUT_MS = 300_000;
/**
 * The run's memory for its sorts and the rows it keeps between its steps, for its transaction
 * only (the server's default is 4 MB): a month over 500 businesses keeps 1.3 million candidates
 * and sorts them by id, which spilled to temporary files.
 */
const SETTLEMENT_RUN_WORK_MEM = "256MB";

/**
 * Creates one pending settlement per approved business for its unsettled successful payments and
 * refunds made before the end of the business day `periodEnd`, each row recorded as the
 * settlement's item (at most once: settlement_items' primary key). Runs take a transaction-level
 * advisory lock, so a second run at the same moment waits and then finds nothing left to settle.
 *
 * A business's rows are looked for from the day before its last settlement's period end (a
 * payment committed just after a run, but dated before its end, is carried into the next one),
 * through its (business_id, created_at) index, which holds every column the run reads of them
 * (index-only: a month's run reads a month of the index, neither the ledger nor its pages). A
 * business whose refunds outweigh its payments in the period gets a negative net.
 */
export async function runSettlements(
  tx: Tx,
  run: { periodEnd: string; adminId: number | null; at?: Date },
): Promise<SettlementRunResult> {
  const at = run.at ?? new Date();
  const today = businessDayOf(at);
  if (!(run.periodEnd < today)) {
    throw new HttpError(
      400,
      `The period must end before today's business day (${today})`,
      "PERIOD_NOT_ENDED",
      { today },
    );
  }
  await tx.execute(sql`select pg_advisory_xact_lock(${RUN_LOCK_KEY})`);
  // A run is one deliberate statement over a period's ledger rows (a month of 500 businesses:
  // 1.3 million rows, seconds): it may outlast the requests' STATEMENT_TIMEOUT_MS.
  await tx.execute(
    sql`select set_config('statement_timeout', ${String(SETTLEMENT_RUN_TIMEOUT_MS)}, true),
               set_config('work_mem', ${SETTLEMENT_RUN_WORK_MEM}, true)`,
  );
  const zone = businessTimeZone();
  const end = sql`((${run.periodEnd}::date + 1)::timestamp at time zone ${zone})`;
  const [result] = (
    await tx.execute<{ created: number; items: number; netSen: string | null }>(sql`
      with open_businesses as materialized (
        select b.id, b.bank_name, b.bank_account, b.last_end,
               coalesce((b.last_end - 1)::timestamp at time zone ${zone}, '-infinity') as since,
               coalesce((b.last_end + 1)::timestamp at time zone ${zone}, '-infinity')
                 as settled_before
        from (select b.*,
                     (select max(s.period_end) from ${settlements} s where s.business_id = b.id)
                       as last_end
              from ${businesses} b where b.status = 'approved') b
      ),
      -- A business's rows from the day before its last period's end (a row written as that day
      -- closed may have missed its run); only those up to that end can be settled already.
      candidates as (
        select t.id, t.business_id, t.type, t.amount_sen, t.fee_sen, t.created_at
        from open_businesses b
        join ${ledger} t on t.business_id = b.id
          and t.created_at < ${end} and t.created_at >= b.since
        where ${countedRows("t")}
          and case when t.created_at >= b.settled_before then true
                   else not exists (select 1 from ${settlementItems} i where i.transaction_id = t.id)
              end
      ),
      sums as (
        select c.business_id, min(c.created_at) as first_at, ${merchantFigures("c")}
        from candidates c
        group by c.business_id
      ),
      created as (
        insert into ${settlements} (business_id, period_start, period_end, payment_count,
          gross_sen, refund_count, refund_sen, fee_sen, net_sen, bank_name, bank_account,
          created_by, created_at, updated_at)
        select s.business_id,
               least(coalesce(b.last_end + 1, (s.first_at at time zone ${zone})::date),
                     ${run.periodEnd}::date),
               ${run.periodEnd}::date, s.payment_count, s.gross_sen, s.refund_count,
               s.refund_sen, s.fee_sen, s.gross_sen - s.refund_sen - s.fee_sen,
               b.bank_name, b.bank_account, ${run.adminId}, ${at.toISOString()}::timestamptz,
               ${at.toISOString()}::timestamptz
        from sums s join open_businesses b on b.id = s.business_id
        returning id, business_id, net_sen, payment_count, refund_count
      ),
      -- Not read back (its rows are the settlements' counts): returning them kept 1.3 million
      -- rows aside only to count them.
      covered as (
        insert into ${settlementItems} (transaction_id, settlement_id)
        select c.id, created.id from candidates c join created using (business_id)
        -- In key order, each row lands on the primary key's last page: business by business,
        -- each row went into the middle of the month's pages (1.5 million rows: 5.7 s → 2.1 s).
        order by c.id
      ),
      audited as (
        insert into ${auditLog} (admin_id, action, target_table, target_id, remark, after,
                                 created_at)
        select ${run.adminId}, 'settlement.create', 'settlements', created.id::text,
               ${`Settlement run up to ${run.periodEnd}`},
               jsonb_build_object('periodEnd', ${run.periodEnd}::text, 'netSen', created.net_sen),
               ${at.toISOString()}::timestamptz
        from created
        returning 1
      )
      select (select count(*) from created)::int as created,
             (select coalesce(sum(payment_count + refund_count), 0) from created)::int as items,
             (select sum(net_sen) from created) as "netSen",
             (select count(*) from audited)::int as audited`)
  ).rows;
  return {
    periodEnd: run.periodEnd,
    created: result?.created ?? 0,
    items: result?.items ?? 0,
    netSen: Number(result?.netSen ?? 0),
  };
}

/**
 * One settlement's invoice as an A4 PDF, in `language` (404 when there is no such settlement):
 * the same figures as the console's invoice page.
 */
export async function settlementInvoice(
  db: Db,
  bound: BoundModule,
  id: number,
  { language, font }: Pick<InvoiceInput, "language" | "font">,
): Promise<{ settlement: SettlementDto; pdf: Buffer }> {
  const settlement = (await bound.read(db, id)) as SettlementDto | undefined;
  if (!settlement) throw notFound("Settlement");
  const pdf = await invoicePdf({ settlement, language, timeZone: businessTimeZone(), font });
  return { settlement, pdf };
}
