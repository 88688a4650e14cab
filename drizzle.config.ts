import { defineConfig } from "drizzle-kit";

/**
 * `npx drizzle-kit generate` writes SQL migrations from server/db/schema.ts into
 * server/db/migrations; the server applies them at start with drizzle's migrator, on the embedded
 * PGlite store and on PostgreSQL alike.
 */
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema.ts",
  out: "./server/db/migrations",
  strict: true,
  verbose: true,
});
