/**
 * Paging of every list, one definition for the server's compiler and the console
 * (docs/backoffice.md).
 * It has a file of its own, without zod, because the console's data provider reads it: the login
 * page loads that provider and should not load zod with it.
 */
export const LIST_PAGING = {
  defaultPage: 1,
  defaultPageSize: 10,
  maxPageSize: 100,
  /**
   * Matching rows are counted exactly up to this many; beyond it `totalCount` is this number and
   * `totalCountExact` is false ("1,000+"). An exact count costs in proportion to what it counts
   * (a million rows: ~60 ms); this bound keeps a list's cost the same at 10,000 users and at a
   * million. 10,000 was measured too: counting that far halved the list's throughput (README,
   * "Lists at scale").
   */
  exactCountLimit: 1_000,
} as const;

/** Characters of a list's search text (`$search`); the console's search boxes stop there too. */
export const LIST_SEARCH_MAX_LENGTH = 200;
