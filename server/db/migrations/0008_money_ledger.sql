CREATE TABLE "businesses" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "businesses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"registration_number" text NOT NULL,
	"category" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"fee_rate_bp" integer DEFAULT 0 NOT NULL,
	"bank_name" text NOT NULL,
	"bank_account" text NOT NULL,
	"remark" text,
	"reviewer_id" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "businesses_status_check" CHECK ("businesses"."status" in ('pending', 'approved', 'rejected', 'suspended')),
	CONSTRAINT "businesses_category_check" CHECK ("businesses"."category" in ('canteen', 'cafe', 'bookshop', 'print_shop', 'laundry', 'convenience', 'other')),
	CONSTRAINT "businesses_fee_rate_bp_check" CHECK ("businesses"."fee_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "wallet_policies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_policies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"max_balance_sen" bigint NOT NULL,
	"min_top_up_sen" bigint NOT NULL,
	"max_top_up_sen" bigint NOT NULL,
	"daily_top_up_limit_sen" bigint NOT NULL,
	"daily_payment_limit_sen" bigint NOT NULL,
	"dormancy_days" integer NOT NULL,
	"remark" text,
	"admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_policies_limits_check" CHECK ("wallet_policies"."min_top_up_sen" > 0 and "wallet_policies"."min_top_up_sen" <= "wallet_policies"."max_top_up_sen"
        and "wallet_policies"."max_top_up_sen" <= "wallet_policies"."daily_top_up_limit_sen"
        and "wallet_policies"."daily_top_up_limit_sen" <= "wallet_policies"."max_balance_sen" and "wallet_policies"."daily_payment_limit_sen" > 0),
	CONSTRAINT "wallet_policies_dormancy_days_check" CHECK ("wallet_policies"."dormancy_days" between 1 and 36500)
);
--> statement-breakpoint
CREATE TABLE "wallet_transactions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallet_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"amount_sen" bigint NOT NULL,
	"balance_after_sen" bigint NOT NULL,
	"channel" text,
	"business_id" integer,
	"agent_user_id" integer,
	"status" text DEFAULT 'success' NOT NULL,
	"reference" text NOT NULL,
	"reverses_id" integer,
	"remark" text,
	"admin_id" integer,
	"search_text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_transactions_reference_key" UNIQUE("reference"),
	CONSTRAINT "wallet_transactions_reverses_id_key" UNIQUE("reverses_id"),
	CONSTRAINT "wallet_transactions_type_check" CHECK ("wallet_transactions"."type" in ('top_up', 'payment', 'refund', 'reversal', 'adjustment')),
	CONSTRAINT "wallet_transactions_channel_check" CHECK ("wallet_transactions"."channel" in ('fpx', 'card', 'agent', 'counter')),
	CONSTRAINT "wallet_transactions_status_check" CHECK ("wallet_transactions"."status" in ('pending', 'success', 'failed', 'reversed')),
	CONSTRAINT "wallet_transactions_amount_sen_check" CHECK ("wallet_transactions"."amount_sen" <> 0),
	CONSTRAINT "wallet_transactions_balance_after_sen_check" CHECK ("wallet_transactions"."balance_after_sen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_reviewer_id_administrators_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."administrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_agent_user_id_users_id_fk" FOREIGN KEY ("agent_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_reverses_id_wallet_transactions_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "businesses_status_created_at_idx" ON "businesses" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "businesses_owner_user_id_idx" ON "businesses" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_type_created_at_idx" ON "wallet_transactions" USING btree ("type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "wallet_transactions_type_status_created_at_idx" ON "wallet_transactions" USING btree ("type","status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "wallet_transactions_user_id_created_at_idx" ON "wallet_transactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_transactions_business_id_created_at_idx" ON "wallet_transactions" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_transactions_search_key_trgm_idx" ON "wallet_transactions" USING gin ((translate("search_text", ' .@+-_', 'SDAPHU')) gin_trgm_ops);--> statement-breakpoint
-- The ledger is append-only: no row is deleted, and of a row only its status may change (a
-- top-up becomes reversed, a pending payment succeeds or fails). Refunds and reversals are rows.
CREATE FUNCTION "wallet_transactions_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'wallet_transactions is append-only: DELETE is not allowed';
  END IF;
  IF (NEW.id, NEW.user_id, NEW.type, NEW.amount_sen, NEW.balance_after_sen, NEW.channel,
      NEW.business_id, NEW.agent_user_id, NEW.reference, NEW.reverses_id, NEW.remark,
      NEW.admin_id, NEW.search_text, NEW.created_at)
     IS DISTINCT FROM
     (OLD.id, OLD.user_id, OLD.type, OLD.amount_sen, OLD.balance_after_sen, OLD.channel,
      OLD.business_id, OLD.agent_user_id, OLD.reference, OLD.reverses_id, OLD.remark,
      OLD.admin_id, OLD.search_text, OLD.created_at) THEN
    RAISE EXCEPTION 'wallet_transactions is append-only: only status may change';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "wallet_transactions_append_only"
BEFORE UPDATE OR DELETE ON "wallet_transactions"
FOR EACH ROW EXECUTE FUNCTION "wallet_transactions_refuse_change"();
--> statement-breakpoint
-- Policy versions are history: a change is a new version.
CREATE FUNCTION "wallet_policies_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'wallet_policies is append-only: % is not allowed', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "wallet_policies_append_only"
BEFORE UPDATE OR DELETE ON "wallet_policies"
FOR EACH ROW EXECUTE FUNCTION "wallet_policies_refuse_change"();
--> statement-breakpoint
-- The first policy version, so that a policy is always in force; the dormancy period carries over
-- the former dormancyDays global setting when it held a sane value.
INSERT INTO "wallet_policies" ("max_balance_sen", "min_top_up_sen", "max_top_up_sen",
  "daily_top_up_limit_sen", "daily_payment_limit_sen", "dormancy_days", "remark")
SELECT 150000, 500, 50000, 100000, 50000,
  coalesce((
    SELECT CASE WHEN jsonb_typeof("value") = 'number' THEN
      CASE WHEN ("value" #>> '{}')::numeric BETWEEN 1 AND 36500
        AND ("value" #>> '{}')::numeric = trunc(("value" #>> '{}')::numeric)
      THEN ("value" #>> '{}')::int END END
    FROM "global_settings" WHERE "key" = 'dormancyDays'), 365),
  'The first policy';
--> statement-breakpoint
DELETE FROM "global_settings" WHERE "key" = 'dormancyDays';
