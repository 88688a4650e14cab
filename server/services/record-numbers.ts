import { sql, type SQL } from "drizzle-orm";

import type { settlements, userReports } from "../db/schema";

/**
 * A settlement's invoice number: INV-, the month its period ends and its id on six digits (one
 * rule for the Settlement module's field and the look-up by reference).
 */
export const invoiceNumberOf = (table: typeof settlements): SQL<string> =>
  sql<string>`'INV-' || to_char(${table.periodEnd}, 'YYYYMM') || '-' || lpad(${table.id}::text, 6, '0')`;

/** A user report's reference: RPT- and its id on six digits (the module's field and the look-up). */
export const reportReferenceOf = (table: typeof userReports): SQL<string> =>
  sql<string>`'RPT-' || lpad(${table.id}::text, 6, '0')`;
