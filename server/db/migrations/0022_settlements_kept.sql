ALTER TABLE "settlement_items" DROP CONSTRAINT "settlement_items_settlement_id_settlements_id_fk";
--> statement-breakpoint
-- By hand: a settlement is a record of a payout and is never deleted (a failed one is marked
-- failed), so its items need no key to it: refuse DELETE and TRUNCATE as the ledger does.
CREATE FUNCTION "settlements_refuse_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'settlements are kept: % is not allowed', TG_OP;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "settlements_no_delete"
BEFORE DELETE ON "settlements"
FOR EACH ROW EXECUTE FUNCTION "settlements_refuse_delete"();
--> statement-breakpoint
CREATE TRIGGER "settlements_no_truncate"
BEFORE TRUNCATE ON "settlements"
FOR EACH STATEMENT EXECUTE FUNCTION "settlements_refuse_delete"();
