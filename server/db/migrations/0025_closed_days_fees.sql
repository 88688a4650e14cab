-- A closed day's figures now hold the payments' fees (figure 'fee'), which the Merchant
-- Transaction Summary's totals read for closed days. Every closed day is reopened: it is read
-- live until the close-days job (at the next start, then every quarter of an hour) closes it
-- again with its fees.
DELETE FROM "closed_day_figures";--> statement-breakpoint
DELETE FROM "closed_days";
