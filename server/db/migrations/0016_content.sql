CREATE TABLE "content_images" (
	"id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_articles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "help_articles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"category" text NOT NULL,
	"position" integer NOT NULL,
	"title_en" text NOT NULL,
	"title_zh" text NOT NULL,
	"body_en" text NOT NULL,
	"body_zh" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"author_id" integer,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "help_articles_category_check" CHECK ("help_articles"."category" in ('top_up', 'payments', 'refunds', 'lost_card', 'parking', 'account')),
	CONSTRAINT "help_articles_status_check" CHECK ("help_articles"."status" in ('draft', 'published'))
);
--> statement-breakpoint
CREATE TABLE "merchant_announcements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "merchant_announcements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title_en" text NOT NULL,
	"title_zh" text NOT NULL,
	"body_en" text NOT NULL,
	"body_zh" text NOT NULL,
	"audience" text NOT NULL,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"publish_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"pinned" boolean DEFAULT false NOT NULL,
	"author_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_announcements_audience_check" CHECK ("merchant_announcements"."audience" in ('all', 'categories')),
	CONSTRAINT "merchant_announcements_dates_check" CHECK ("merchant_announcements"."expires_at" is null or "merchant_announcements"."expires_at" > "merchant_announcements"."publish_at")
);
--> statement-breakpoint
CREATE INDEX "help_articles_category_position_idx" ON "help_articles" USING btree ("category","position","id");--> statement-breakpoint
CREATE INDEX "merchant_announcements_publish_at_idx" ON "merchant_announcements" USING btree ("publish_at" DESC NULLS LAST,"id" DESC NULLS LAST);