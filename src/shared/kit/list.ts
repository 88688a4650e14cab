import { z } from "zod";

/** Paging of every list, one definition for the server's compiler and the console (backoffice.md). */
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

/**
 * The response of an aggregation list: `{ totalCount, <queryName>: item[], totalCountExact }`
 * (api.md allows fields to follow). One definition, so the OpenAPI document and the browser's
 * types agree for every collection.
 */
export function aggregationListSchema<Name extends string, Item extends z.ZodType>(
  queryName: Name,
  item: Item,
) {
  return z
    .object({ totalCount: z.number().int() })
    .extend({ [queryName]: z.array(item) } as { [K in Name]: z.ZodArray<Item> })
    .extend({
      totalCountExact: z.boolean().meta({
        description:
          `false when more rows match than are counted (${LIST_PAGING.exactCountLimit}): ` +
          "totalCount is then that lower bound, and later pages can still be requested",
      }),
    });
}
