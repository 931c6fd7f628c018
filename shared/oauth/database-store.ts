/**
 * The OAuth server's records in the platform database (migrations/0008_oauth.sql), shared by every
 * api replica. Each one-shot rule is a single conditional statement (DELETE … RETURNING, UPDATE …
 * WHERE used_at IS NULL), or for a refresh rotation one transaction under its family's row lock, so
 * concurrent requests on any replicas cannot both win. Times are
 * compared with the caller's `now` (ms since the epoch), never the database clock, so tests inject
 * clocks; every conversion goes through `ts()` so equal instants compare equal.
 */
import { withTransaction, type Db } from '../db/index.js';
import type {
  ClientAuthMethod,
  CodeRedemption,
  IssuedCode,
  OAuthStore,
  PendingAuthorization,
  RefreshGrant,
  RefreshRotation,
  RegisteredClient,
  UpstreamIdentity,
} from './records.js';
import { checkRetention } from './retention.js';

/** SQL for the timestamptz of parameter `$n` holding ms since the epoch. */
const ts = (n: number) => `to_timestamp($${n}::double precision / 1000)`;

interface PendingRow {
  id: string;
  client_id: string;
  redirect_uri: string;
  client_state: string;
  code_challenge: string;
  scope: string | null;
  resource: string;
  upstream_verifier: string;
  nonce: string;
  expires_at: Date;
}

interface CodeRow {
  digest: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string | null;
  resource: string;
  identity: UpstreamIdentity;
  expires_at: Date;
}

interface GrantRow {
  digest: string;
  family_id: string;
  client_id: string;
  scope: string | null;
  resource: string;
  identity: UpstreamIdentity;
  expires_at: Date;
}

interface ClientRow {
  id: string;
  secret_digest: string | null;
  name: string | null;
  redirect_uris: string[];
  auth_method: ClientAuthMethod;
  created_at: Date;
  last_used_at: Date | null;
}

/** Optional fields are absent, not undefined, when the column is NULL. */
function optional<K extends string>(key: K, value: string | null): { [P in K]?: string } {
  return (value === null ? {} : { [key]: value }) as { [P in K]?: string };
}

function pendingOf(row: PendingRow): PendingAuthorization {
  return {
    id: row.id,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    clientState: row.client_state,
    codeChallenge: row.code_challenge,
    ...optional('scope', row.scope),
    resource: row.resource,
    upstreamVerifier: row.upstream_verifier,
    nonce: row.nonce,
    expiresAt: row.expires_at.getTime(),
  };
}

function codeOf(row: CodeRow): IssuedCode {
  return {
    digest: row.digest,
    clientId: row.client_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    ...optional('scope', row.scope),
    resource: row.resource,
    identity: row.identity,
    expiresAt: row.expires_at.getTime(),
  };
}

function grantOf(row: GrantRow): RefreshGrant {
  return {
    digest: row.digest,
    familyId: row.family_id,
    clientId: row.client_id,
    ...optional('scope', row.scope),
    resource: row.resource,
    identity: row.identity,
    expiresAt: row.expires_at.getTime(),
  };
}

function clientOf(row: ClientRow): RegisteredClient {
  return {
    id: row.id,
    ...optional('secretDigest', row.secret_digest),
    ...optional('name', row.name),
    redirectUris: row.redirect_uris,
    authMethod: row.auth_method,
    createdAt: row.created_at.getTime(),
    ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at.getTime() }),
  };
}

const codeColumns = 'digest, client_id, redirect_uri, code_challenge, scope, resource, identity, expires_at';
const grantColumns = 'digest, family_id, client_id, scope, resource, identity, expires_at';

/** INSERT of a grant ($1..$7), starting its family or extending the family's end to cover it. */
const insertGrantSql = `
  WITH family AS (
    INSERT INTO oauth_refresh_families (family_id, expires_at) VALUES ($2, ${ts(7)})
    ON CONFLICT (family_id) DO UPDATE SET expires_at = greatest(oauth_refresh_families.expires_at, excluded.expires_at)
  )
  INSERT INTO oauth_refresh_grants (${grantColumns}) VALUES ($1, $2, $3, $4, $5, $6::jsonb, ${ts(7)})`;

function grantParams(g: RefreshGrant): unknown[] {
  return [g.digest, g.familyId, g.clientId, g.scope ?? null, g.resource, JSON.stringify(g.identity), g.expiresAt];
}

export function databaseOAuthStore(db: Db): OAuthStore {
  return {
    async savePendingAuthorization(p) {
      await db.query(
        `INSERT INTO oauth_pending_authorizations
           (id, client_id, redirect_uri, client_state, code_challenge, scope, resource, upstream_verifier, nonce, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, ${ts(10)})`,
        [p.id, p.clientId, p.redirectUri, p.clientState, p.codeChallenge, p.scope ?? null, p.resource, p.upstreamVerifier, p.nonce, p.expiresAt],
      );
    },

    async takePendingAuthorization(id, now) {
      // Deleted whether live or not: an expired state is of no further use.
      const { rows } = await db.query<PendingRow & { live: boolean }>(
        `DELETE FROM oauth_pending_authorizations WHERE id = $1 RETURNING *, expires_at > ${ts(2)} AS live`,
        [id, now],
      );
      const row = rows[0];
      return row?.live ? pendingOf(row) : undefined;
    },

    async saveCode(c) {
      await db.query(`INSERT INTO oauth_codes (${codeColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, ${ts(8)})`, [
        c.digest,
        c.clientId,
        c.redirectUri,
        c.codeChallenge,
        c.scope ?? null,
        c.resource,
        JSON.stringify(c.identity),
        c.expiresAt,
      ]);
    },

    async redeemCode(digest, familyId, now): Promise<CodeRedemption> {
      // The row lock makes a concurrent redemption wait, then find used_at set and update nothing.
      // The family is born here, so a replay racing the token response can already revoke it.
      const redeemed = await db.query<CodeRow>(
        `WITH code AS (
           UPDATE oauth_codes SET used_at = ${ts(3)}, family_id = $2
            WHERE digest = $1 AND used_at IS NULL AND expires_at > ${ts(3)}
           RETURNING ${codeColumns}
         ), family AS (
           INSERT INTO oauth_refresh_families (family_id, expires_at) SELECT $2, expires_at FROM code
           ON CONFLICT (family_id) DO NOTHING
         )
         SELECT * FROM code`,
        [digest, familyId, now],
      );
      if (redeemed.rows[0]) return { result: 'redeemed', code: codeOf(redeemed.rows[0]) };
      // A new statement, a new snapshot: it sees the redemption the update above waited for.
      // used_at and family_id are set together, so a used code always names its family.
      const { rows } = await db.query<{ family_id: string }>(
        'SELECT family_id FROM oauth_codes WHERE digest = $1 AND used_at IS NOT NULL',
        [digest],
      );
      return rows[0] ? { result: 'replayed', familyId: rows[0].family_id } : { result: 'unknown' };
    },

    async saveRefreshGrant(grant) {
      await db.query(insertGrantSql, grantParams(grant));
    },

    async findRefreshGrant(digest, now) {
      const { rows } = await db.query<GrantRow>(
        `SELECT g.*
           FROM oauth_refresh_grants g JOIN oauth_refresh_families f USING (family_id)
          WHERE g.digest = $1 AND g.expires_at > ${ts(2)} AND f.revoked_at IS NULL`,
        [digest, now],
      );
      return rows[0] && grantOf(rows[0]);
    },

    rotateRefreshGrant(digest, next, now) {
      return withTransaction(db, async (client): Promise<RefreshRotation> => {
        // Lock the family first: rotations and revocations of one family then run one at a time,
        // and what is read after the lock is what the previous holder committed.
        const family = await client.query<{ family_id: string; revoked: boolean }>(
          `SELECT f.family_id, f.revoked_at IS NOT NULL AS revoked
             FROM oauth_refresh_grants g JOIN oauth_refresh_families f USING (family_id)
            WHERE g.digest = $1
              FOR UPDATE OF f`,
          [digest],
        );
        const familyId = family.rows[0]?.family_id;
        if (familyId === undefined || family.rows[0]!.revoked) return { result: 'unknown' };
        const current = await client.query<GrantRow & { rotated: boolean; expired: boolean }>(
          `SELECT ${grantColumns}, rotated_at IS NOT NULL AS rotated, expires_at <= ${ts(2)} AS expired
             FROM oauth_refresh_grants WHERE digest = $1`,
          [digest, now],
        );
        const old = current.rows[0];
        if (!old || old.expired) return { result: 'unknown' };
        if (old.rotated) {
          await client.query(`UPDATE oauth_refresh_families SET revoked_at = ${ts(2)} WHERE family_id = $1`, [familyId, now]);
          return { result: 'reused', familyId };
        }
        if (next.familyId !== familyId) throw new Error(`refresh rotation must stay in family ${familyId}, got ${next.familyId}`);
        await client.query(`UPDATE oauth_refresh_grants SET rotated_at = ${ts(2)} WHERE digest = $1`, [digest, now]);
        await client.query(insertGrantSql, grantParams(next));
        return { result: 'rotated', grant: grantOf(old) };
      });
    },

    async revokeFamily(familyId) {
      // The row lock waits for a rotation in flight, whose new token is then refused with the rest.
      await db.query('UPDATE oauth_refresh_families SET revoked_at = coalesce(revoked_at, now()) WHERE family_id = $1', [familyId]);
    },

    async familyActive(familyId, now) {
      const { rows } = await db.query(
        `SELECT 1 FROM oauth_refresh_families WHERE family_id = $1 AND revoked_at IS NULL AND expires_at > ${ts(2)}`,
        [familyId, now],
      );
      return rows.length > 0;
    },

    async registerClient(c) {
      await db.query(
        `INSERT INTO oauth_registered_clients (id, secret_digest, name, redirect_uris, auth_method, created_at, last_used_at)
         VALUES ($1, $2, $3, $4, $5, ${ts(6)}, ${ts(7)})`,
        [c.id, c.secretDigest ?? null, c.name ?? null, c.redirectUris, c.authMethod, c.createdAt, c.lastUsedAt ?? null],
      );
    },

    async findClient(id) {
      const { rows } = await db.query<ClientRow>('SELECT * FROM oauth_registered_clients WHERE id = $1', [id]);
      return rows[0] && clientOf(rows[0]);
    },

    async touchClient(id, now) {
      await db.query(`UPDATE oauth_registered_clients SET last_used_at = ${ts(2)} WHERE id = $1`, [id, now]);
    },

    async purgeExpired(now, retention) {
      checkRetention(retention);
      const statements: [string, unknown[]][] = [
        [`DELETE FROM oauth_pending_authorizations WHERE expires_at <= ${ts(1)}`, [now]],
        [`DELETE FROM oauth_codes WHERE expires_at <= ${ts(1)}`, [now]],
        // Tokens of a revoked family are of no use any more; the family itself stays until its end,
        // so that a token saved into it late is refused too.
        [
          `DELETE FROM oauth_refresh_grants
            WHERE expires_at <= ${ts(1)}
               OR family_id IN (SELECT family_id FROM oauth_refresh_families WHERE revoked_at IS NOT NULL)`,
          [now],
        ],
        [`DELETE FROM oauth_refresh_families WHERE expires_at <= ${ts(1)}`, [now]],
        [
          `DELETE FROM oauth_registered_clients
            WHERE (last_used_at IS NULL AND created_at <= ${ts(1)}) OR last_used_at <= ${ts(2)}`,
          [now - retention.unusedClientMs, now - retention.idleClientMs],
        ],
      ];
      let removed = 0;
      for (const [sql, params] of statements) removed += (await db.query(sql, params)).rowCount ?? 0;
      return removed;
    },
  };
}
