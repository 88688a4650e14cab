CREATE TABLE "administrators" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "administrators_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"permissions" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"is_super_admin" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"language" text,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "administrators_status_check" CHECK ("administrators"."status" in ('active', 'disabled', 'banned')),
	CONSTRAINT "administrators_language_check" CHECK ("administrators"."language" in ('en-US', 'cn-ZH'))
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"agent_type" text NOT NULL,
	"commission_rate_bp" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_commission_rate_bp_check" CHECK ("agents"."commission_rate_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"admin_id" integer,
	"action" text NOT NULL,
	"target_table" text NOT NULL,
	"target_id" text NOT NULL,
	"remark" text,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "change_contact_submissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "change_contact_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"contact_type" text NOT NULL,
	"old_value" text,
	"new_value" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"remark" text,
	"reviewer_id" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "change_contact_submissions_contact_type_check" CHECK ("change_contact_submissions"."contact_type" in ('email', 'phone')),
	CONSTRAINT "change_contact_submissions_status_check" CHECK ("change_contact_submissions"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "global_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rider_attendance" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rider_attendance_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"date" date NOT NULL,
	"clock_in" timestamp with time zone NOT NULL,
	"clock_out" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rider_attendance_clock_check" CHECK ("rider_attendance"."clock_out" is null or "rider_attendance"."clock_out" >= "rider_attendance"."clock_in")
);
--> statement-breakpoint
CREATE TABLE "riders" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"vehicle_type" text NOT NULL,
	"plate" text NOT NULL,
	"licence_number" text NOT NULL,
	"documents" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verification_status" text DEFAULT 'pending' NOT NULL,
	"verification_remarks" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "riders_verification_status_check" CHECK ("riders"."verification_status" in ('pending', 'Approved', 'Rejected'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_number" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"role" text NOT NULL,
	"approval_status" text DEFAULT 'pending' NOT NULL,
	"approval_remark" text,
	"is_banned" boolean DEFAULT false NOT NULL,
	"ban_remark" text,
	"is_vip" boolean DEFAULT false NOT NULL,
	"url" text,
	"last_active_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_account_number_key" UNIQUE("account_number"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('student', 'staff', 'public', 'merchant', 'rider', 'agent')),
	CONSTRAINT "users_approval_status_check" CHECK ("users"."approval_status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wallets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"balance_sen" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_user_id_key" UNIQUE("user_id"),
	CONSTRAINT "wallets_status_check" CHECK ("wallets"."status" in ('active', 'frozen', 'dormant')),
	CONSTRAINT "wallets_balance_sen_check" CHECK ("wallets"."balance_sen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_contact_submissions" ADD CONSTRAINT "change_contact_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "change_contact_submissions" ADD CONSTRAINT "change_contact_submissions_reviewer_id_administrators_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."administrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rider_attendance" ADD CONSTRAINT "rider_attendance_user_id_riders_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."riders"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "riders" ADD CONSTRAINT "riders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "administrators_email_lower_key" ON "administrators" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "administrators_created_at_idx" ON "administrators" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_table","target_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "audit_log_admin_id_idx" ON "audit_log" USING btree ("admin_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "change_contact_submissions_status_created_at_idx" ON "change_contact_submissions" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "change_contact_submissions_user_id_idx" ON "change_contact_submissions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rider_attendance_user_id_date_idx" ON "rider_attendance" USING btree ("user_id","date");--> statement-breakpoint
CREATE INDEX "riders_verification_status_idx" ON "riders" USING btree ("verification_status");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_approval_status_created_at_idx" ON "users" USING btree ("approval_status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");--> statement-breakpoint
CREATE INDEX "users_last_active_at_idx" ON "users" USING btree ("last_active_at");