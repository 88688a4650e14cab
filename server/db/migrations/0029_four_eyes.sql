CREATE TABLE "change_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "change_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reference" text NOT NULL,
	"module" text NOT NULL,
	"action" text NOT NULL,
	"verb" text NOT NULL,
	"record_id" integer,
	"record_title" text,
	"body" jsonb NOT NULL,
	"reason" text NOT NULL,
	"amount_sen" bigint,
	"before" jsonb,
	"after" jsonb,
	"permission" integer,
	"checker_permission" integer,
	"rule" text NOT NULL,
	"threshold_sen" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"maker_id" integer NOT NULL,
	"checker_id" integer,
	"remark" text,
	"decided_at" timestamp with time zone,
	"result_id" integer,
	"failure_code" text,
	"failure_message" text,
	"failed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_requests_status_check" CHECK ("change_requests"."status" in ('pending', 'approved', 'rejected', 'withdrawn', 'expired')),
	CONSTRAINT "change_requests_rule_check" CHECK ("change_requests"."rule" in ('always', 'above')),
	CONSTRAINT "change_requests_decided_check" CHECK (("change_requests"."status" = 'pending') = ("change_requests"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "approved_by" integer;--> statement-breakpoint
ALTER TABLE "wallet_policies" ADD COLUMN "four_eyes_top_up_above_sen" bigint DEFAULT 20000 NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_policies" ADD COLUMN "four_eyes_refund_above_sen" bigint DEFAULT 20000 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "change_requests_reference_key" ON "change_requests" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "change_requests_status_created_at_idx" ON "change_requests" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "change_requests_created_at_idx" ON "change_requests" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "change_requests_record_idx" ON "change_requests" USING btree ("module","record_id");--> statement-breakpoint
CREATE INDEX "change_requests_maker_id_idx" ON "change_requests" USING btree ("maker_id");--> statement-breakpoint
ALTER TABLE "wallet_policies" ADD CONSTRAINT "wallet_policies_four_eyes_check" CHECK ("wallet_policies"."four_eyes_top_up_above_sen" >= 0 and "wallet_policies"."four_eyes_refund_above_sen" >= 0);