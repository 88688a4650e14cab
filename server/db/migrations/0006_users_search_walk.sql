CREATE INDEX "users_created_at_search_idx" ON "users" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"search_text");--> statement-breakpoint
-- Written by hand (drizzle-kit has no statistics targets): with the default 100 histogram entries
-- the planner guesses a LIKE '%…%' on search_text matches 0.01% of the users whatever the term,
-- so it fetches all 8,000 users a common name matches through the trigram index to sort them,
-- where walking users_created_at_search_idx finds ten in a thousand. A finer histogram tells
-- common terms from rare ones (an account number still goes through the trigram index).
ALTER TABLE "users" ALTER COLUMN "search_text" SET STATISTICS 1000;--> statement-breakpoint
ANALYZE "users";
