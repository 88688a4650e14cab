DROP INDEX "users_search_text_trgm_idx";--> statement-breakpoint
CREATE INDEX "users_search_key_trgm_idx" ON "users" USING gin ((translate("search_text", ' .@+-_', 'SDAPHU')) gin_trgm_ops);--> statement-breakpoint
-- By hand (drizzle-kit has no statistics targets): the planner reads how common a term is from
-- this expression's statistics, which need finer detail than the default 100 entries (0006).
ALTER INDEX "users_search_key_trgm_idx" ALTER COLUMN 1 SET STATISTICS 1000;--> statement-breakpoint
ANALYZE "users";
