CREATE TABLE "chain_heads" (
	"chain" text NOT NULL,
	"shard" integer NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"hash" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_heads_chain_shard_pk" PRIMARY KEY("chain","shard")
);
--> statement-breakpoint
CREATE TABLE "chain_verifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_verifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"status" text NOT NULL,
	"rows_checked" bigint NOT NULL,
	"heads" jsonb NOT NULL,
	"breaks" jsonb NOT NULL,
	"admin_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "chain_verifications_status_check" CHECK ("chain_verifications"."status" in ('ok', 'broken'))
);
--> statement-breakpoint
CREATE TABLE "reconciliation_days" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_days_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"status" text NOT NULL,
	"checks" jsonb NOT NULL,
	"closing_float_sen" bigint NOT NULL,
	"failed_checks" integer DEFAULT 0 NOT NULL,
	"ran_by" integer,
	"ran_at" timestamp with time zone NOT NULL,
	"investigated_by" integer,
	"investigated_at" timestamp with time zone,
	"investigation_remark" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_days_status_check" CHECK ("reconciliation_days"."status" in ('passed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_shard" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "chain_seq" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" "bytea";--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD COLUMN "hash" "bytea";--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "ledger_hash" "bytea";--> statement-breakpoint
CREATE INDEX "chain_verifications_started_at_idx" ON "chain_verifications" USING btree ("started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_days_day_key" ON "reconciliation_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "reconciliation_days_day_idx" ON "reconciliation_days" USING btree ("day" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_chain_key" ON "audit_log" USING btree ("chain_shard","chain_seq");--> statement-breakpoint
-- By hand: the tamper-evident chains (docs/integrity.md). A row's digest is SHA-256 over the
-- UTF-8 bytes of its canonical text: each field in a fixed order, null as "-", any other value as
-- its length in UTF-8 bytes (decimal), ":" and its text (integers in decimal, times as
-- YYYY-MM-DDTHH:MM:SS.ffffffZ in UTC, jsonb as PostgreSQL prints it: keys in jsonb's own order,
-- whatever order they were written in). A link is SHA-256(previous link || digest); the first
-- link's previous is 32 zero bytes. server/integrity/canonical.ts and scripts/verify-export.mjs
-- encode the same way in JavaScript. (The database's encoding is UTF-8, as the app creates it.)
CREATE FUNCTION "chain_field"(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(octet_length(value)::text || ':' || value, '-')
$$;
--> statement-breakpoint
CREATE FUNCTION "chain_time"(value timestamptz) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;
--> statement-breakpoint
-- Every column of a ledger row but status (the one the trigger lets change) and hash.
CREATE FUNCTION "ledger_digest"(
  id bigint, user_id bigint, type text, amount_sen bigint, balance_after_sen bigint, channel text,
  business_id bigint, agent_user_id bigint, reference text, reverses_id bigint, fee_sen bigint,
  remark text, admin_id bigint, search_text text, created_at timestamptz
) RETURNS bytea
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(chain_field(id::text) || chain_field(user_id::text) || chain_field(type)
    || chain_field(amount_sen::text) || chain_field(balance_after_sen::text) || chain_field(channel)
    || chain_field(business_id::text) || chain_field(agent_user_id::text) || chain_field(reference)
    || chain_field(reverses_id::text) || chain_field(fee_sen::text) || chain_field(remark)
    || chain_field(admin_id::text) || chain_field(search_text) || chain_field(chain_time(created_at)),
    'UTF8'))
$$;
--> statement-breakpoint
-- Every column of an audit entry but its place in the chain (chain_shard, chain_seq: the walk's
-- order, which a moved entry breaks anyway) and hash.
CREATE FUNCTION "audit_digest"(
  id bigint, admin_id bigint, action text, target_table text, target_id text, remark text,
  before jsonb, after jsonb, approved_by bigint, created_at timestamptz
) RETURNS bytea
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT sha256(convert_to(chain_field(id::text) || chain_field(admin_id::text) || chain_field(action)
    || chain_field(target_table) || chain_field(target_id) || chain_field(remark)
    || chain_field(before::text) || chain_field(after::text) || chain_field(approved_by::text)
    || chain_field(chain_time(created_at)), 'UTF8'))
$$;
--> statement-breakpoint
-- A running chain as an aggregate (used as a window function by the bulk chaining below and the
-- seeds): each row's link from the previous one, starting after `start` (zeros when null).
CREATE FUNCTION "chain_step"(state bytea, start bytea, digest bytea) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sha256(coalesce(state, start, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea) || digest)
$$;
--> statement-breakpoint
CREATE AGGREGATE "chain_fold"(bytea, bytea) (SFUNC = "chain_step", STYPE = bytea);
--> statement-breakpoint
-- The audit trail's 64 shards, each an empty chain.
INSERT INTO "chain_heads" ("chain", "shard", "seq", "hash")
SELECT 'audit', shard, 0, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
FROM generate_series(0, 63) AS shard;
--> statement-breakpoint
-- Chains audit entries written without a link (before the chain existed; a seed's or an import's
-- bulk insert, in its own transaction, passing their ids) after the head of one shard, in id
-- order. Returns how many it chained.
CREATE FUNCTION "chain_audit_backlog"(ids bigint[] DEFAULT NULL) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  picked integer;
  chained bigint;
BEGIN
  SELECT shard INTO picked FROM chain_heads WHERE chain = 'audit'
  ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF picked IS NULL THEN
    SELECT shard INTO picked FROM chain_heads WHERE chain = 'audit'
    ORDER BY shard LIMIT 1 FOR UPDATE;
  END IF;
  WITH backlog AS (
    SELECT a.id, h.seq + row_number() OVER w AS seq,
           chain_fold(h.hash, audit_digest(a.id, a.admin_id, a.action, a.target_table, a.target_id,
             a.remark, a.before, a.after, a.approved_by, a.created_at)) OVER w AS hash
    FROM audit_log a, chain_heads h
    WHERE a.hash IS NULL AND (ids IS NULL OR a.id = ANY (ids))
      AND h.chain = 'audit' AND h.shard = picked
    WINDOW w AS (ORDER BY a.id ROWS UNBOUNDED PRECEDING)
  ), linked AS (
    UPDATE audit_log a SET chain_shard = picked, chain_seq = b.seq, hash = b.hash
    FROM backlog b WHERE a.id = b.id
    RETURNING a.chain_seq, a.hash
  ), head AS (
    UPDATE chain_heads h SET seq = l.chain_seq, hash = l.hash, updated_at = now()
    FROM (SELECT chain_seq, hash FROM linked ORDER BY chain_seq DESC LIMIT 1) l
    WHERE h.chain = 'audit' AND h.shard = picked
  )
  SELECT count(*) INTO chained FROM linked;
  RETURN chained;
END;
$$;
--> statement-breakpoint
-- Chains ledger rows written without a link (before the chain existed; a seed's bulk insert)
-- after their wallet's head, each wallet's in id order, and moves the heads. Returns how many.
CREATE FUNCTION "chain_ledger_backlog"() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  chained bigint;
BEGIN
  WITH backlog AS (
    SELECT t.id, t.user_id,
           chain_fold(w.ledger_hash, ledger_digest(t.id, t.user_id, t.type, t.amount_sen,
             t.balance_after_sen, t.channel, t.business_id, t.agent_user_id, t.reference,
             t.reverses_id, t.fee_sen, t.remark, t.admin_id, t.search_text, t.created_at))
             OVER (PARTITION BY t.user_id ORDER BY t.id ROWS UNBOUNDED PRECEDING) AS hash
    FROM wallet_transactions t JOIN wallets w ON w.user_id = t.user_id
    WHERE t.hash IS NULL
  ), linked AS (
    UPDATE wallet_transactions t SET hash = b.hash FROM backlog b WHERE t.id = b.id
    RETURNING t.id
  ), head AS (
    UPDATE wallets w SET ledger_hash = last.hash
    FROM (SELECT DISTINCT ON (user_id) user_id, hash FROM backlog ORDER BY user_id, id DESC) last
    WHERE w.user_id = last.user_id
  )
  SELECT count(*) INTO chained FROM linked;
  RETURN chained;
END;
$$;
--> statement-breakpoint
-- The trail stays append-only, but an entry written before the chain existed may be linked once:
-- its chain columns go from null to a value, nothing else changes.
CREATE OR REPLACE FUNCTION "audit_log_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.hash IS NULL AND NEW.hash IS NOT NULL
     AND (to_jsonb(NEW) - 'chain_shard' - 'chain_seq' - 'hash')
         = (to_jsonb(OLD) - 'chain_shard' - 'chain_seq' - 'hash') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP;
END;
$$;
--> statement-breakpoint
-- A ledger row's hash, once set, never changes (null to a value once, for rows written before).
CREATE OR REPLACE FUNCTION "wallet_transactions_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'wallet_transactions is append-only: DELETE is not allowed';
  END IF;
  IF (NEW.id, NEW.user_id, NEW.type, NEW.amount_sen, NEW.balance_after_sen, NEW.channel,
      NEW.business_id, NEW.agent_user_id, NEW.reference, NEW.reverses_id, NEW.remark,
      NEW.admin_id, NEW.search_text, NEW.created_at, NEW.fee_sen)
     IS DISTINCT FROM
     (OLD.id, OLD.user_id, OLD.type, OLD.amount_sen, OLD.balance_after_sen, OLD.channel,
      OLD.business_id, OLD.agent_user_id, OLD.reference, OLD.reverses_id, OLD.remark,
      OLD.admin_id, OLD.search_text, OLD.created_at, OLD.fee_sen)
     OR (OLD.hash IS NOT NULL AND NEW.hash IS DISTINCT FROM OLD.hash) THEN
    RAISE EXCEPTION 'wallet_transactions is append-only: only status may change';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
-- Any writer that inserts an entry without its link (a raw statement: a job's, an import's, a
-- seed's) has it linked here, on a shard no other transaction holds (or, all held, one at random).
-- recordAudit (server/audit.ts) links its entries itself in one statement: the WHEN skips them.
CREATE FUNCTION "audit_log_chain"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  picked integer;
BEGIN
  SELECT shard INTO picked FROM chain_heads WHERE chain = 'audit'
  ORDER BY shard LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF picked IS NULL THEN
    SELECT shard INTO picked FROM chain_heads WHERE chain = 'audit'
    ORDER BY random() LIMIT 1 FOR UPDATE;
  END IF;
  UPDATE chain_heads h SET seq = h.seq + 1, updated_at = now(),
    hash = sha256(h.hash || audit_digest(NEW.id, NEW.admin_id, NEW.action, NEW.target_table,
             NEW.target_id, NEW.remark, NEW.before, NEW.after, NEW.approved_by, NEW.created_at))
  WHERE h.chain = 'audit' AND h.shard = picked
  RETURNING h.shard, h.seq, h.hash INTO NEW.chain_shard, NEW.chain_seq, NEW.hash;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_chain"
BEFORE INSERT ON "audit_log"
FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION "audit_log_chain"();
--> statement-breakpoint
-- The same for a ledger row inserted without its link (a seed's bulk insert, a test's fixture):
-- linked after its wallet's head, under the wallet's row lock, the head moved. The ledger's own
-- append (server/services/ledger.ts) links its rows in its statement: the WHEN skips them.
CREATE FUNCTION "wallet_transactions_chain"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wallets w SET ledger_hash = sha256(
      coalesce(w.ledger_hash, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea)
      || ledger_digest(NEW.id, NEW.user_id, NEW.type, NEW.amount_sen, NEW.balance_after_sen,
           NEW.channel, NEW.business_id, NEW.agent_user_id, NEW.reference, NEW.reverses_id,
           NEW.fee_sen, NEW.remark, NEW.admin_id, NEW.search_text, NEW.created_at))
  WHERE w.user_id = NEW.user_id
  RETURNING w.ledger_hash INTO NEW.hash;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "wallet_transactions_chain"
BEFORE INSERT ON "wallet_transactions"
FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION "wallet_transactions_chain"();
--> statement-breakpoint
-- The rows already there join the chains.
SELECT "chain_audit_backlog"();
--> statement-breakpoint
SELECT "chain_ledger_backlog"();
