ALTER TABLE "settlement_items" DROP CONSTRAINT "settlement_items_transaction_id_wallet_transactions_id_fk";
--> statement-breakpoint
-- By hand: the ledger refuses TRUNCATE as it refuses DELETE (no key from settlement_items stops
-- it any more).
CREATE FUNCTION "wallet_transactions_refuse_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'wallet_transactions is append-only: TRUNCATE is not allowed';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "wallet_transactions_no_truncate"
BEFORE TRUNCATE ON "wallet_transactions"
FOR EACH STATEMENT EXECUTE FUNCTION "wallet_transactions_refuse_truncate"();
