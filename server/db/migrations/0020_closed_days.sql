CREATE TABLE "closed_day_figures" (
	"day" date NOT NULL,
	"figure" text NOT NULL,
	"key" text NOT NULL,
	"n" integer NOT NULL,
	"sen" bigint NOT NULL,
	CONSTRAINT "closed_day_figures_day_figure_key_pk" PRIMARY KEY("day","figure","key")
);
--> statement-breakpoint
CREATE TABLE "closed_days" (
	"day" date PRIMARY KEY NOT NULL,
	"version" bigint GENERATED ALWAYS AS IDENTITY (sequence name "closed_days_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"active_users" "bytea" NOT NULL,
	"merchant_payments" bigint[] NOT NULL,
	"merchant_gross" bigint[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_approval_counts" (
	"approval_status" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "closed_days_version_key" ON "closed_days" USING btree ("version");--> statement-breakpoint
-- By hand: user_approval_counts kept by statement triggers on users, so the dashboard reads three
-- rows instead of counting every user. A statement's changed rows are counted in one upsert.
INSERT INTO "user_approval_counts" ("approval_status", "n")
SELECT "approval_status", count(*) FROM "users" GROUP BY 1;--> statement-breakpoint
CREATE FUNCTION user_approval_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE user_approval_counts SET n = 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO user_approval_counts (approval_status, n)
    SELECT approval_status, count(*) FROM new_users GROUP BY 1
    ON CONFLICT (approval_status) DO UPDATE SET n = user_approval_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE user_approval_counts c SET n = c.n - d.n
    FROM (SELECT approval_status, count(*) AS n FROM old_users GROUP BY 1) d
    WHERE c.approval_status = d.approval_status;
  ELSE
    INSERT INTO user_approval_counts (approval_status, n)
    SELECT approval_status, sum(change) FROM (
      SELECT approval_status, 1 AS change FROM new_users
      UNION ALL SELECT approval_status, -1 FROM old_users) changes
    GROUP BY 1 HAVING sum(change) <> 0
    ON CONFLICT (approval_status) DO UPDATE SET n = user_approval_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_approval_counts_insert AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_users FOR EACH STATEMENT EXECUTE FUNCTION user_approval_counts_keep();--> statement-breakpoint
CREATE TRIGGER users_approval_counts_update AFTER UPDATE ON "users"
  REFERENCING NEW TABLE AS new_users OLD TABLE AS old_users
  FOR EACH STATEMENT EXECUTE FUNCTION user_approval_counts_keep();--> statement-breakpoint
CREATE TRIGGER users_approval_counts_delete AFTER DELETE ON "users"
  REFERENCING OLD TABLE AS old_users FOR EACH STATEMENT EXECUTE FUNCTION user_approval_counts_keep();--> statement-breakpoint
CREATE TRIGGER users_approval_counts_truncate AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION user_approval_counts_keep();
