DROP INDEX "wallet_transactions_type_created_at_idx";--> statement-breakpoint
DROP INDEX "wallet_transactions_type_status_created_at_idx";--> statement-breakpoint
CREATE INDEX "wallet_transactions_type_created_at_idx" ON "wallet_transactions" USING btree ("type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"user_id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_type_status_created_at_idx" ON "wallet_transactions" USING btree ("type","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"user_id");--> statement-breakpoint
-- By hand: drizzle-kit drops and rebuilds the trigram index for a storage parameter (minutes at
-- ten million rows); ALTER INDEX changes it in place. Entries already pending are flushed.
ALTER INDEX "wallet_transactions_search_key_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('wallet_transactions_search_key_trgm_idx');
