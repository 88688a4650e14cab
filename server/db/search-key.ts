import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * What the trigram index of a search column holds: the lower-cased text with the separators
 * inside names, e-mails and phone numbers turned into capitals. pg_trgm cuts words at a
 * separator, so "siti wong" would only look up the trigrams of "siti" and of "wong" (each in
 * tens of thousands of users); as "sitiSwong" it also looks up those spanning the space ("iSw",
 * "tiS", …), which few users have. Lower-cased text holds no capitals, so the mapping is one to
 * one and `key(text) LIKE key(pattern)` matches exactly what `text LIKE pattern` does (the
 * escaped `\_` of a pattern becomes `\U`, still a literal). The field separator U+001F stays a
 * separator, so no match spans two fields. Literals, not parameters: the planner must see the
 * index's own expression in the query.
 */
export function searchKey(lowerCased: AnyPgColumn | SQL): SQL {
  return sql`translate(${lowerCased}, ' .@+-_', 'SDAPHU')`;
}
