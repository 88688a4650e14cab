import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/** A settlement account never leaves the server whole: its last four digits identify it. */
export const maskedAccount = (value: SQL | AnyPgColumn) =>
  sql<string>`'•••• ' || right(${value}, 4)`;
