import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The machine's Postgres used by integration tests (trust auth on loopback by default). */
export const testPostgresAdminDsn = process.env.PLATFORM_TEST_PG ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The admin DSN with its database replaced by `database`. */
export function dsnForDatabase(adminDsn: string, database: string): string {
  const url = new URL(adminDsn);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testPostgresAdminDsn, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, uniquely named database on the test Postgres. Call drop() when done (afterAll/afterEach);
 * it forces other sessions off first, so a leaked pool cannot keep the database alive.
 */
export async function createTestDatabase(): Promise<{ dsn: string; drop(): Promise<void> }> {
  // Lower-case letters and digits only: no quoting surprises, well under the 63-byte name limit.
  const name = `test_${Date.now().toString(36)}_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  let dropped = false;
  return {
    dsn: dsnForDatabase(testPostgresAdminDsn, name),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
