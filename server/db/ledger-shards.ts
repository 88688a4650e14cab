/**
 * Rows per day that a wallet's figures spread over (user_id % LEDGER_SHARDS): top-ups to
 * different wallets rarely wait for one another's row lock. The migration that made the tables
 * (0019) used the same number; changing it needs a rebuild. Its own module, because both the
 * roll-ups (ledger-rollups.ts) and the closed days (closed-days.ts), which the roll-ups call,
 * read it.
 */
export const LEDGER_SHARDS = 32;
