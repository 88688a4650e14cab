CREATE TABLE "merchant_days" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "merchant_days_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"business_id" integer NOT NULL,
	"day" date NOT NULL,
	"payment_count" integer DEFAULT 0 NOT NULL,
	"gross_sen" bigint DEFAULT 0 NOT NULL,
	"refund_count" integer DEFAULT 0 NOT NULL,
	"refund_sen" bigint DEFAULT 0 NOT NULL,
	"fee_sen" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_items" (
	"transaction_id" integer PRIMARY KEY NOT NULL,
	"settlement_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "settlements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"business_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"payment_count" integer NOT NULL,
	"gross_sen" bigint NOT NULL,
	"refund_count" integer NOT NULL,
	"refund_sen" bigint NOT NULL,
	"fee_sen" bigint NOT NULL,
	"net_sen" bigint NOT NULL,
	"bank_name" text NOT NULL,
	"bank_account" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"bank_reference" text,
	"paid_at" timestamp with time zone,
	"created_by" integer,
	"remark" text,
	"reviewer_id" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlements_status_check" CHECK ("settlements"."status" in ('pending', 'paid', 'failed')),
	CONSTRAINT "settlements_period_check" CHECK ("settlements"."period_start" <= "settlements"."period_end"),
	CONSTRAINT "settlements_net_check" CHECK ("settlements"."net_sen" = "settlements"."gross_sen" - "settlements"."refund_sen" - "settlements"."fee_sen"),
	CONSTRAINT "settlements_paid_check" CHECK (("settlements"."status" = 'paid') = ("settlements"."bank_reference" is not null and "settlements"."paid_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "wallet_transactions" DROP CONSTRAINT "wallet_transactions_reverses_id_key";--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD COLUMN "fee_sen" bigint;--> statement-breakpoint
-- By hand: the payments made before fees were recorded get theirs at their business's rate now
-- (the append-only trigger is held off for this one backfill), and fee_sen joins the columns
-- that never change.
ALTER TABLE "wallet_transactions" DISABLE TRIGGER "wallet_transactions_append_only";--> statement-breakpoint
UPDATE "wallet_transactions" t SET "fee_sen" = (-t."amount_sen" * b."fee_rate_bp" + 5000) / 10000
FROM "businesses" b WHERE t."type" = 'payment' AND b."id" = t."business_id";--> statement-breakpoint
UPDATE "wallet_transactions" SET "fee_sen" = 0 WHERE "type" = 'payment' AND "fee_sen" IS NULL;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ENABLE TRIGGER "wallet_transactions_append_only";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "wallet_transactions_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'wallet_transactions is append-only: DELETE is not allowed';
  END IF;
  IF (NEW.id, NEW.user_id, NEW.type, NEW.amount_sen, NEW.balance_after_sen, NEW.channel,
      NEW.business_id, NEW.agent_user_id, NEW.reference, NEW.reverses_id, NEW.remark,
      NEW.admin_id, NEW.search_text, NEW.created_at, NEW.fee_sen)
     IS DISTINCT FROM
     (OLD.id, OLD.user_id, OLD.type, OLD.amount_sen, OLD.balance_after_sen, OLD.channel,
      OLD.business_id, OLD.agent_user_id, OLD.reference, OLD.reverses_id, OLD.remark,
      OLD.admin_id, OLD.search_text, OLD.created_at, OLD.fee_sen) THEN
    RAISE EXCEPTION 'wallet_transactions is append-only: only status may change';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
ALTER TABLE "merchant_days" ADD CONSTRAINT "merchant_days_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_items" ADD CONSTRAINT "settlement_items_transaction_id_wallet_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_items" ADD CONSTRAINT "settlement_items_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_reviewer_id_administrators_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."administrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_days_business_id_day_key" ON "merchant_days" USING btree ("business_id","day");--> statement-breakpoint
CREATE INDEX "merchant_days_day_id_idx" ON "merchant_days" USING btree ("day" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "settlement_items_settlement_id_idx" ON "settlement_items" USING btree ("settlement_id","transaction_id");--> statement-breakpoint
CREATE INDEX "settlements_created_at_idx" ON "settlements" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "settlements_business_id_period_end_idx" ON "settlements" USING btree ("business_id","period_end");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_transactions_reversal_of_key" ON "wallet_transactions" USING btree ("reverses_id") WHERE "wallet_transactions"."type" = 'reversal';--> statement-breakpoint
CREATE INDEX "wallet_transactions_reverses_id_idx" ON "wallet_transactions" USING btree ("reverses_id");--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_fee_sen_check" CHECK (("wallet_transactions"."type" = 'payment') = ("wallet_transactions"."fee_sen" is not null) and "wallet_transactions"."fee_sen" >= 0);--> statement-breakpoint
-- By hand: the summary of the payments and refunds already in the ledger, by business day in the
-- default BUSINESS_TIMEZONE (Asia/Kuala_Lumpur). A deployment on another zone rebuilds it with
-- `npm run seed -- --rebuild-summary` (server/db/merchant-days.ts).
INSERT INTO "merchant_days" ("business_id", "day", "payment_count", "gross_sen", "refund_count", "refund_sen", "fee_sen")
SELECT "business_id", ("created_at" AT TIME ZONE 'Asia/Kuala_Lumpur')::date,
  count(*) FILTER (WHERE "type" = 'payment'),
  coalesce(sum(-"amount_sen") FILTER (WHERE "type" = 'payment'), 0),
  count(*) FILTER (WHERE "type" = 'refund'),
  coalesce(sum("amount_sen") FILTER (WHERE "type" = 'refund'), 0),
  coalesce(sum("fee_sen") FILTER (WHERE "type" = 'payment'), 0)
FROM "wallet_transactions"
WHERE "business_id" IS NOT NULL
  AND (("type" = 'payment' AND "status" IN ('success', 'reversed')) OR ("type" = 'refund' AND "status" = 'success'))
GROUP BY 1, 2;