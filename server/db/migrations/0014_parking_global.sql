CREATE TABLE "parking_lots" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "parking_lots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"code" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"capacity" integer NOT NULL,
	"hourly_rate_sen" integer NOT NULL,
	"daily_cap_sen" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parking_lots_code_key" UNIQUE("code"),
	CONSTRAINT "parking_lots_status_check" CHECK ("parking_lots"."status" in ('open', 'closed')),
	CONSTRAINT "parking_lots_latitude_check" CHECK ("parking_lots"."latitude" between -90 and 90),
	CONSTRAINT "parking_lots_longitude_check" CHECK ("parking_lots"."longitude" between -180 and 180),
	CONSTRAINT "parking_lots_capacity_check" CHECK ("parking_lots"."capacity" > 0),
	CONSTRAINT "parking_lots_rates_check" CHECK ("parking_lots"."hourly_rate_sen" >= 0 and "parking_lots"."daily_cap_sen" >= "parking_lots"."hourly_rate_sen")
);
--> statement-breakpoint
CREATE TABLE "parking_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "parking_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"lot_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"plate" text NOT NULL,
	"entered_at" timestamp with time zone NOT NULL,
	"exited_at" timestamp with time zone,
	"hourly_rate_sen" integer NOT NULL,
	"daily_cap_sen" integer NOT NULL,
	"fee_sen" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"payment_id" integer,
	"remark" text,
	"admin_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "parking_sessions_status_check" CHECK ("parking_sessions"."status" in ('active', 'completed', 'cancelled')),
	CONSTRAINT "parking_sessions_exit_check" CHECK (("parking_sessions"."status" = 'active') = ("parking_sessions"."exited_at" is null) and "parking_sessions"."exited_at" >= "parking_sessions"."entered_at"),
	CONSTRAINT "parking_sessions_fee_check" CHECK (("parking_sessions"."status" = 'completed') = ("parking_sessions"."fee_sen" is not null) and "parking_sessions"."fee_sen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "administrators" ADD COLUMN "theme" text;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_lot_id_parking_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."parking_lots"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parking_sessions" ADD CONSTRAINT "parking_sessions_payment_id_wallet_transactions_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "parking_sessions_active_plate_key" ON "parking_sessions" USING btree ("plate") WHERE "parking_sessions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "parking_sessions_entered_at_idx" ON "parking_sessions" USING btree ("entered_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "parking_sessions_lot_id_status_idx" ON "parking_sessions" USING btree ("lot_id","status");--> statement-breakpoint
CREATE INDEX "parking_sessions_user_id_idx" ON "parking_sessions" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "administrators" ADD CONSTRAINT "administrators_theme_check" CHECK ("administrators"."theme" in ('light', 'dark'));