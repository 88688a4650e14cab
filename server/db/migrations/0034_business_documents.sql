CREATE TABLE "business_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" integer NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_documents_kind_check" CHECK ("business_documents"."kind" in ('registration_certificate', 'bank_letter')),
	CONSTRAINT "business_documents_content_type_check" CHECK ("business_documents"."content_type" in ('application/pdf', 'image/jpeg', 'image/png')),
	CONSTRAINT "business_documents_size_check" CHECK ("business_documents"."size" between 1 and 5242880)
);
--> statement-breakpoint
ALTER TABLE "business_documents" ADD CONSTRAINT "business_documents_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_documents" ADD CONSTRAINT "business_documents_uploaded_by_administrators_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."administrators"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "business_documents_business_id_idx" ON "business_documents" USING btree ("business_id","created_at");