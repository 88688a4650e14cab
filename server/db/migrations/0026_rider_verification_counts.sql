CREATE TABLE "rider_verification_counts" (
	"verification_status" text PRIMARY KEY NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
-- By hand: rider_verification_counts kept by statement triggers on riders, as user_approval_counts
-- on users (0020), so the dashboard reads one row instead of counting every pending rider (5,106
-- on the 10-million-row bench store, half of the dashboard's counting on the embedded store).
-- Both now use one function: status_counts_keep(counts table, status column), the trigger's
-- changed rows (transition tables new_rows and old_rows) counted by status in one upsert.
CREATE FUNCTION status_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counts text := quote_ident(TG_ARGV[0]);
  status text := quote_ident(TG_ARGV[1]);
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    EXECUTE format('UPDATE %s SET n = 0', counts);
  ELSE
    EXECUTE format(
      'INSERT INTO %1$s (%2$s, n)
       SELECT %2$s, sum(change) FROM (%3$s) changes
       GROUP BY 1 HAVING sum(change) <> 0
       ON CONFLICT (%2$s) DO UPDATE SET n = %1$s.n + excluded.n',
      counts, status,
      CASE TG_OP
        WHEN 'INSERT' THEN format('SELECT %s, 1 AS change FROM new_rows', status)
        WHEN 'DELETE' THEN format('SELECT %s, -1 AS change FROM old_rows', status)
        ELSE format('SELECT %1$s, 1 AS change FROM new_rows UNION ALL SELECT %1$s, -1 FROM old_rows', status)
      END);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER users_approval_counts_insert ON "users";--> statement-breakpoint
DROP TRIGGER users_approval_counts_update ON "users";--> statement-breakpoint
DROP TRIGGER users_approval_counts_delete ON "users";--> statement-breakpoint
DROP TRIGGER users_approval_counts_truncate ON "users";--> statement-breakpoint
DROP FUNCTION user_approval_counts_keep();--> statement-breakpoint
-- The same four triggers on each counted table.
DO $$
DECLARE
  kept record;
BEGIN
  FOR kept IN SELECT * FROM (VALUES
    ('users', 'users_approval_counts', 'user_approval_counts', 'approval_status'),
    ('riders', 'riders_verification_counts', 'rider_verification_counts', 'verification_status')
  ) AS t (counted, prefix, counts, status) LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_keep(%L, %L)',
      kept.prefix || '_insert', kept.counted, kept.counts, kept.status);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I
      REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_keep(%L, %L)',
      kept.prefix || '_update', kept.counted, kept.counts, kept.status);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_keep(%L, %L)',
      kept.prefix || '_delete', kept.counted, kept.counts, kept.status);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_keep(%L, %L)',
      kept.prefix || '_truncate', kept.counted, kept.counts, kept.status);
  END LOOP;
END $$;--> statement-breakpoint
-- Counted after the triggers exist: a rider added meanwhile waits for their lock, then counts.
INSERT INTO "rider_verification_counts" ("verification_status", "n")
SELECT "verification_status", count(*) FROM "riders" GROUP BY 1;
