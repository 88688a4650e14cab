CREATE TABLE "rate_limit_logs" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" timestamp with time zone[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_logs_expires_at_idx" ON "rate_limit_logs" USING btree ("expires_at");