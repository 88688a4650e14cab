CREATE TABLE "ucsi_ids" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ucsi_ids_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ucsi_id" text NOT NULL,
	"type" text NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"linked_by" integer,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer,
	"remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ucsi_ids_type_check" CHECK ("ucsi_ids"."type" in ('student', 'staff')),
	CONSTRAINT "ucsi_ids_status_check" CHECK ("ucsi_ids"."status" in ('active', 'revoked')),
	CONSTRAINT "ucsi_ids_format_check" CHECK (("ucsi_ids"."type" = 'student' and "ucsi_ids"."ucsi_id" ~ '^[0-9]{10}$')
        or ("ucsi_ids"."type" = 'staff' and "ucsi_ids"."ucsi_id" ~ '^S[0-9]{5}$')),
	CONSTRAINT "ucsi_ids_revoked_check" CHECK (("ucsi_ids"."status" = 'revoked') = ("ucsi_ids"."revoked_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "user_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reporter_id" integer NOT NULL,
	"type" text NOT NULL,
	"subject" text NOT NULL,
	"description" text NOT NULL,
	"payment_id" integer,
	"business_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_id" integer,
	"note" text,
	"refund_id" integer,
	"closed_at" timestamp with time zone,
	"closed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_reports_type_check" CHECK ("user_reports"."type" in ('transaction_dispute', 'merchant_complaint', 'app_problem', 'other')),
	CONSTRAINT "user_reports_status_check" CHECK ("user_reports"."status" in ('open', 'in_progress', 'resolved', 'rejected')),
	CONSTRAINT "user_reports_closed_check" CHECK (("user_reports"."status" in ('resolved', 'rejected')) = ("user_reports"."closed_at" is not null and "user_reports"."note" is not null))
);
--> statement-breakpoint
ALTER TABLE "ucsi_ids" ADD CONSTRAINT "ucsi_ids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_payment_id_wallet_transactions_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_assignee_id_administrators_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."administrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_reports" ADD CONSTRAINT "user_reports_refund_id_wallet_transactions_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ucsi_ids_active_ucsi_id_key" ON "ucsi_ids" USING btree ("ucsi_id") WHERE "ucsi_ids"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "ucsi_ids_active_user_id_key" ON "ucsi_ids" USING btree ("user_id") WHERE "ucsi_ids"."status" = 'active';--> statement-breakpoint
CREATE INDEX "ucsi_ids_linked_at_idx" ON "ucsi_ids" USING btree ("linked_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ucsi_ids_ucsi_id_idx" ON "ucsi_ids" USING btree ("ucsi_id");--> statement-breakpoint
CREATE INDEX "ucsi_ids_user_id_idx" ON "ucsi_ids" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_reports_created_at_idx" ON "user_reports" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "user_reports_status_created_at_idx" ON "user_reports" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "user_reports_assignee_id_idx" ON "user_reports" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "user_reports_reporter_id_idx" ON "user_reports" USING btree ("reporter_id");--> statement-breakpoint
CREATE INDEX "user_reports_payment_id_idx" ON "user_reports" USING btree ("payment_id");