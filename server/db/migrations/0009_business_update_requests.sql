CREATE TABLE "business_update_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "business_update_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"business_id" integer NOT NULL,
	"changes" jsonb NOT NULL,
	"previous" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"remark" text,
	"reviewer_id" integer,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_update_requests_status_check" CHECK ("business_update_requests"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "business_update_requests_changes_check" CHECK (jsonb_typeof("business_update_requests"."changes") = 'object' and "business_update_requests"."changes" <> '{}'::jsonb)
);
--> statement-breakpoint
ALTER TABLE "business_update_requests" ADD CONSTRAINT "business_update_requests_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_update_requests" ADD CONSTRAINT "business_update_requests_reviewer_id_administrators_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."administrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_update_requests_status_created_at_idx" ON "business_update_requests" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "business_update_requests_business_id_idx" ON "business_update_requests" USING btree ("business_id");