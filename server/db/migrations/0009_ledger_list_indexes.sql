DROP INDEX "wallet_transactions_type_created_at_idx";--> statement-breakpoint
DROP INDEX "wallet_transactions_type_status_created_at_idx";--> statement-breakpoint
CREATE INDEX "wallet_transactions_type_created_at_idx" ON "wallet_transactions" USING btree ("type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"user_id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_type_status_created_at_idx" ON "wallet_transactions" USING btree ("type","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"user_id");