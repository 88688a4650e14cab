CREATE TABLE "rider_verification_counts" (
	"verification_status" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
-- By hand: rider_verification_counts kept by statement triggers on riders, as user_approval_counts
-- on users (0020), so the dashboard reads one row instead of counting every pending rider (5,106
-- on the 10-million-row bench store, half of the dashboard's counting on the embedded store).
INSERT INTO "rider_verification_counts" ("verification_status", "n")
SELECT "verification_status", count(*) FROM "riders" GROUP BY 1;--> statement-breakpoint
CREATE FUNCTION rider_verification_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE rider_verification_counts SET n = 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO rider_verification_counts (verification_status, n)
    SELECT verification_status, count(*) FROM new_riders GROUP BY 1
    ON CONFLICT (verification_status) DO UPDATE SET n = rider_verification_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE rider_verification_counts c SET n = c.n - d.n
    FROM (SELECT verification_status, count(*) AS n FROM old_riders GROUP BY 1) d
    WHERE c.verification_status = d.verification_status;
  ELSE
    INSERT INTO rider_verification_counts (verification_status, n)
    SELECT verification_status, sum(change) FROM (
      SELECT verification_status, 1 AS change FROM new_riders
      UNION ALL SELECT verification_status, -1 FROM old_riders) changes
    GROUP BY 1 HAVING sum(change) <> 0
    ON CONFLICT (verification_status) DO UPDATE SET n = rider_verification_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER riders_verification_counts_insert AFTER INSERT ON "riders"
  REFERENCING NEW TABLE AS new_riders FOR EACH STATEMENT EXECUTE FUNCTION rider_verification_counts_keep();--> statement-breakpoint
CREATE TRIGGER riders_verification_counts_update AFTER UPDATE ON "riders"
  REFERENCING NEW TABLE AS new_riders OLD TABLE AS old_riders
  FOR EACH STATEMENT EXECUTE FUNCTION rider_verification_counts_keep();--> statement-breakpoint
CREATE TRIGGER riders_verification_counts_delete AFTER DELETE ON "riders"
  REFERENCING OLD TABLE AS old_riders FOR EACH STATEMENT EXECUTE FUNCTION rider_verification_counts_keep();--> statement-breakpoint
CREATE TRIGGER riders_verification_counts_truncate AFTER TRUNCATE ON "riders"
  FOR EACH STATEMENT EXECUTE FUNCTION rider_verification_counts_keep();
