import { z } from "zod";

import { LIST_PAGING } from "./paging";

export { LIST_PAGING, LIST_SEARCH_MAX_LENGTH } from "./paging";

/**
 * The response of an aggregation list: `{ totalCount, <queryName>: item[], totalCountExact }`
 * (docs/api.md, "The answer"). One definition, so the OpenAPI document and the browser's
 * types agree for every collection.
 */
export function aggregationListSchema<Name extends string, Item extends z.ZodType>(
  queryName: Name,
  item: Item,
  totals?: readonly string[],
) {
  const list = z
    .object({ totalCount: z.number().int() })
    .extend({ [queryName]: z.array(item) } as { [K in Name]: z.ZodArray<Item> })
    .extend({
      totalCountExact: z.boolean().meta({
        description:
          `false when more rows match than are counted (${LIST_PAGING.exactCountLimit}): ` +
          "totalCount is then that lower bound, and later pages can still be requested",
      }),
    });
  if (!totals?.length) return list;
  return list.extend({
    totals: z
      .strictObject(Object.fromEntries(totals.map((key) => [key, z.number().int()])))
      .meta({ description: "Sums over every row the filter selects, not only this page" }),
  }) as unknown as typeof list;
}
