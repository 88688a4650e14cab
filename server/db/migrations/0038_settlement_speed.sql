-- A settlement run's speed (issue 36). A settlement's items by settlement_id alone: a run adds
-- each item into its own settlement's part of the index (in ledger id order, for the primary key),
-- and with the ledger id in the key every item was an entry of its own (writing a month's items
-- took a third longer); on settlement_id alone they are kept deduplicated, one list per settlement.
DROP INDEX "settlement_items_settlement_id_idx";--> statement-breakpoint
-- A business's payments and refunds by time, with every column a run reads of them: the run reads
-- a month's candidates from this index alone (index-only) instead of fetching each row from the
-- table's pages (1.3 million rows of 500 businesses at 10 million ledger rows, scattered over the
-- table: the run's largest cost on PGlite's buffer pool). Partial: only rows with a business
-- (payments and refunds); every query on it names a business.
DROP INDEX "wallet_transactions_business_id_created_at_idx";--> statement-breakpoint
CREATE INDEX "settlement_items_settlement_id_idx" ON "settlement_items" USING btree ("settlement_id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_business_id_created_at_idx" ON "wallet_transactions" USING btree ("business_id","created_at","id","type","status","amount_sen","fee_sen") WHERE "wallet_transactions"."business_id" is not null;
