-- Live updates (docs/live-updates.md): every statement that changes a table of a declared module
-- tells the instances with one NOTIFY on channel 'live', carrying the table, the kind of change
-- and at most 200 ids (never a record's contents), numbered by live_event_seq so that every
-- instance numbers an event the same way (the stream's Last-Event-ID). More ids than that: ids is
-- null ("many changed in <table>"), and the administrator whose change it was when the kit said
-- so (app.actor, set for the transaction). Statement-level with transition tables: a bulk seed of
-- millions of rows costs one notification, whoever wrote (the API, a job, a raw script).
CREATE SEQUENCE "live_event_seq";--> statement-breakpoint
CREATE FUNCTION "live_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ignored text[] := TG_ARGV;
  ids jsonb;
  n integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(s.id), count(*) INTO ids, n FROM (SELECT r.id FROM new_rows r LIMIT 201) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(s.id), count(*) INTO ids, n FROM (SELECT r.id FROM old_rows r LIMIT 201) s;
  ELSIF cardinality(ignored) > 0 THEN
    -- Only rows that changed in a column someone sees: a sign-in's last_login_at is not news.
    SELECT jsonb_agg(s.id), count(*) INTO ids, n FROM (
      SELECT r.id FROM new_rows r JOIN old_rows o ON o.id = r.id
      WHERE (to_jsonb(r) - ignored) IS DISTINCT FROM (to_jsonb(o) - ignored)
      LIMIT 201) s;
  ELSE
    SELECT jsonb_agg(s.id), count(*) INTO ids, n FROM (SELECT r.id FROM new_rows r LIMIT 201) s;
  END IF;
  IF n = 0 THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('live', json_build_object(
    'e', nextval('live_event_seq'),
    't', TG_TABLE_NAME,
    'k', lower(left(TG_OP, 1)),
    'ids', CASE WHEN n > 200 THEN NULL ELSE ids END,
    -- Who made the change, when the module kit set it for its transaction (server/kit/change.ts).
    'a', nullif(current_setting('app.actor', true), ''))::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A staff session ended (logout, ended by its holder or the super administrator, idle): the
-- instances close that administrator's open streams whose session is over (no event number).
CREATE FUNCTION "live_notify_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  admins jsonb;
BEGIN
  SELECT jsonb_agg(DISTINCT r.admin_id) INTO admins
  FROM new_rows r JOIN old_rows o ON o.jti = r.jti
  WHERE r.ended_at IS NOT NULL AND o.ended_at IS NULL;
  IF admins IS NOT NULL THEN
    PERFORM pg_notify('live', json_build_object('t', 'admin_sessions', 'k', 'r', 'ids',
      CASE WHEN jsonb_array_length(admins) > 200 THEN NULL ELSE admins END)::text);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "live_ended" AFTER UPDATE ON "admin_sessions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify_sessions"();--> statement-breakpoint
-- The tables of the declared modules (a test checks every bound module's table has them).
CREATE TRIGGER "live_insert" AFTER INSERT ON "administrators" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "administrators" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"('last_login_at', 'updated_at');--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "administrators" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "app_notifications" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "app_notifications" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "app_notifications" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "audit_log" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "audit_log" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "audit_log" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "businesses" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "businesses" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "businesses" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "business_update_requests" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "business_update_requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "business_update_requests" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "change_contact_submissions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "change_contact_submissions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "change_contact_submissions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "change_requests" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "change_requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "change_requests" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"('last_active_at', 'updated_at');--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "help_articles" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "help_articles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "help_articles" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "merchant_announcements" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "merchant_announcements" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "merchant_announcements" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "merchant_days" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "merchant_days" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "merchant_days" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "parking_lots" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "parking_lots" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "parking_lots" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "parking_sessions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "parking_sessions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "parking_sessions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "reconciliation_days" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "reconciliation_days" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "reconciliation_days" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "settlements" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "settlements" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "settlements" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "wallet_transactions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "wallet_transactions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "wallet_transactions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "ucsi_ids" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "ucsi_ids" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "ucsi_ids" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "user_reports" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "user_reports" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "user_reports" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_insert" AFTER INSERT ON "wallet_policies" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_update" AFTER UPDATE ON "wallet_policies" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();--> statement-breakpoint
CREATE TRIGGER "live_delete" AFTER DELETE ON "wallet_policies" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "live_notify"();
