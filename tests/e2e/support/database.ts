/**
 * Reaches into the database the started server uses, for what the API deliberately cannot do
 * (delete an administrator). The embedded store is served over the PostgreSQL wire protocol on a
 * unix socket in DATA_DIR (server/db/embedded.ts); the connection is opened per use and closed.
 */
import pg from "pg";

const SOCKET_PORT = 5432;

export async function withDatabase<T>(
  dataDir: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({
    host: dataDir,
    port: SOCKET_PORT,
    user: "postgres",
    database: "postgres",
  });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
