CREATE TABLE "active_user_days" (
	"day" date NOT NULL,
	"shard" integer NOT NULL,
	"users" bit varying NOT NULL
);
--> statement-breakpoint
CREATE TABLE "top_up_days" (
	"day" date NOT NULL,
	"channel" text NOT NULL,
	"shard" integer NOT NULL,
	"top_ups" integer NOT NULL,
	"top_up_sen" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "active_user_days_day_shard_key" ON "active_user_days" USING btree ("day","shard");--> statement-breakpoint
CREATE UNIQUE INDEX "top_up_days_day_channel_shard_key" ON "top_up_days" USING btree ("day","channel","shard");--> statement-breakpoint
-- By hand: a bit string with one more bit set (grown with 0s to reach it), and the aggregate of
-- such bits, for the active users' per-day strings (server/db/ledger-rollups.ts).
CREATE FUNCTION varbit_with_bit(bits bit varying, at_bit integer) RETURNS bit varying
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT set_bit(CASE WHEN length(bits) > at_bit THEN bits
                      ELSE bits || repeat('0', at_bit + 1 - length(bits))::bit varying END,
                 at_bit, 1)
$$;--> statement-breakpoint
CREATE AGGREGATE varbit_of_bits(integer) (SFUNC = varbit_with_bit, STYPE = bit varying, INITCOND = '');--> statement-breakpoint
-- By hand: the roll-ups of the ledger already there, by business day in the default
-- BUSINESS_TIMEZONE (Asia/Kuala_Lumpur) and 32 shards (LEDGER_SHARDS). A deployment on another
-- zone rebuilds them with `npm run seed -- --rebuild-summary`.
INSERT INTO "top_up_days" ("day", "channel", "shard", "top_ups", "top_up_sen")
SELECT ("created_at" AT TIME ZONE 'Asia/Kuala_Lumpur')::date, coalesce("channel", ''), "user_id" % 32,
  count(*), sum("amount_sen")
FROM "wallet_transactions"
WHERE "type" = 'top_up' AND "status" = 'success'
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "active_user_days" ("day", "shard", "users")
SELECT "day", "shard", varbit_of_bits("at_bit" ORDER BY "at_bit" DESC)
FROM (SELECT DISTINCT ("created_at" AT TIME ZONE 'Asia/Kuala_Lumpur')::date AS "day",
        "user_id" % 32 AS "shard", "user_id" / 32 AS "at_bit"
      FROM "wallet_transactions"
      WHERE "type" IN ('top_up', 'payment') AND "status" IN ('success', 'reversed')) a
GROUP BY 1, 2;
