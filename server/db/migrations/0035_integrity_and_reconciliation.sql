CREATE TABLE "chain_heads" (
	"chain" text NOT NULL,
	"shard" integer NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"hash" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_heads_chain_shard_pk" PRIMARY KEY("chain","shard")
);
--> statement-breakpoint
CREATE TABLE "chain_verifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_verifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"status" text NOT NULL,
	"rows_checked" bigint NOT NULL,
	"heads" jsonb NOT NULL,
	"breaks" jsonb NOT NULL,
	"admin_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "chain_verifications_status_check" CHECK ("chain_verifications"."status" in ('ok', 'broken'))
);
--> statement-breakpoint
CREATE TABLE "reconciliation_days" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_days_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"status" text NOT NULL,
	"checks" jsonb NOT NULL,
	"closing_float_sen" bigint NOT NULL,
	"failed_checks" integer DEFAULT 0 NOT NULL,
	"ran_by" integer,
	"ran_at" timestamp with time zone NOT NULL,
	"investigated_by" integer,
	"investigated_at" timestamp with time zone,
	"investigation_remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_days_status_check" CHECK ("reconciliation_days"."status" in ('passed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_shard" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" "bytea";--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD COLUMN "hash" "bytea";--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "ledger_hash" "bytea";--> statement-breakpoint
CREATE INDEX "chain_verifications_started_at_idx" ON "chain_verifications" USING btree ("started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_days_day_key" ON "reconciliation_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "reconciliation_days_day_idx" ON "reconciliation_days" USING btree ("day" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_key" ON "audit_log" USING btree ("chain_shard","chain_seq");