import type pg from 'pg';
import { uuidv7 } from '../crypto/index.js';
import { digestKey, generateApiKey, type ApiKeyLookup, type StoredApiKey } from './api-keys.js';

type Queryable = Pick<pg.Pool, 'query'>;

/** API keys the platform created itself, kept as SHA-256 digests in `api_keys`. */
export function databaseApiKeys(db: Queryable): ApiKeyLookup & {
  /** Creates the named key when it does not exist yet; returns the plain key only on that first call. */
  ensureKey(name: string, roles: string[]): Promise<{ created: true; key: string } | { created: false }>;
} {
  return {
    async findByDigest(digest: Buffer): Promise<StoredApiKey | undefined> {
      const { rows } = await db.query<{ name: string; key_sha256: Buffer; roles: string[] }>(
        'SELECT name, key_sha256, roles FROM api_keys WHERE key_sha256 = $1',
        [digest],
      );
      const row = rows[0];
      return row ? { name: row.name, digest: row.key_sha256, roles: row.roles } : undefined;
    },
    async ensureKey(name, roles) {
      const key = generateApiKey();
      const { rowCount } = await db.query(
        'INSERT INTO api_keys (id, name, key_sha256, roles) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING',
        [uuidv7(), name, digestKey(key), roles],
      );
      return rowCount === 1 ? { created: true, key } : { created: false };
    },
  };
}
