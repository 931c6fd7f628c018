/**
 * Rows written before subjects were namespaced carry the bare value: an API key's name or an OIDC
 * `sub`, indistinguishable by themselves. Telling them apart needs the configuration (API key names,
 * the OIDC issuer), which SQL migrations do not have, so the api rewrites them once at startup,
 * in one transaction, and records that in `subject_namespace_migration` (migration 0005).
 */
import type pg from 'pg';
import { withTransaction, type Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { anonymousSubject, apiKeySubject, localOperatorSubject, oidcSubject } from './subjects.js';

export interface LegacySubjectRule {
  /** Names of the API keys that exist now: configured and stored by the platform. */
  apiKeyNames: ReadonlySet<string>;
  /** `auth.oidc.issuer`, when set. */
  oidcIssuer?: string | undefined;
}

/** What the old code called the stdio operator and anonymous callers. */
const legacyLocalOperator = 'local-operator';
const legacyAnonymous = 'anonymous';

/**
 * The namespaced form of a bare subject. An auth type stored next to it (audit rows) decides.
 * Otherwise, first match wins: the old fixed names of the stdio operator and of anonymous callers;
 * the name of an API key that exists now; a user of the configured OIDC issuer. What none of these
 * explains becomes `legacy:<bare>`: kept, but no caller authenticates as it (fail closed), so an
 * OIDC user can never inherit a vanished key's data or the other way round.
 */
export function namespacedLegacySubject(bare: string, rule: LegacySubjectRule, authType?: string): string {
  const oidc = () => (rule.oidcIssuer ? oidcSubject(rule.oidcIssuer, bare) : `legacy:${bare}`);
  switch (authType) {
    case 'apikey':
      return apiKeySubject(bare);
    case 'oidc':
      return oidc();
    case 'local':
      return localOperatorSubject;
    case 'anonymous':
      return anonymousSubject;
  }
  if (bare === legacyLocalOperator) return localOperatorSubject;
  if (bare === legacyAnonymous) return anonymousSubject;
  if (rule.apiKeyNames.has(bare)) return apiKeySubject(bare);
  return oidc();
}

/** Every column that holds a subject, except audit rows (renamed with their auth type) and alias URIs. */
const subjectColumns: ReadonlyArray<{ table: string; column: string; where?: string }> = [
  { table: 'mcp_sessions', column: 'subject' },
  { table: 'resources', column: 'library_key', where: "library_kind = 'person'" },
  { table: 'resources', column: 'uploader' },
  { table: 'resource_versions', column: 'uploader' },
  { table: 'resource_folders', column: 'library_key', where: "library_kind = 'person'" },
  { table: 'resource_writers', column: 'writer_id', where: "writer_kind = 'person'" },
  { table: 'resource_events', column: 'actor' },
];

const personUriHead = 'mcp://user/';

/**
 * Where a person's canonical URIs start (shared/resources/uri.ts, canonicalUri; a unit test keeps
 * the two equal). Not imported: identity must not load the resources domain and its object stores.
 */
export function personUriPrefix(subject: string): string {
  return `${personUriHead}${encodeURIComponent(subject)}/`;
}

async function bareSubjects(client: pg.PoolClient): Promise<string[]> {
  const union = subjectColumns
    .map(({ table, column, where }) => `SELECT ${column} AS bare FROM ${table}${where ? ` WHERE ${where}` : ''}`)
    .join(' UNION ');
  const { rows } = await client.query<{ bare: string }>(union);
  // Aliases keep addresses a resource has left, possibly in a library nothing else names any more.
  const aliases = await client.query<{ segment: string }>(
    `SELECT DISTINCT split_part(substr(uri, $1), '/', 1) AS segment FROM resource_aliases WHERE left(uri, $2) = $3`,
    [personUriHead.length + 1, personUriHead.length, personUriHead],
  );
  const fromAliases = aliases.rows.flatMap(({ segment }) => {
    try {
      return [decodeURIComponent(segment)];
    } catch {
      return [];
    }
  });
  return [...new Set([...rows.map((r) => r.bare), ...fromAliases])];
}

async function rename(client: pg.PoolClient, rule: LegacySubjectRule): Promise<number> {
  const bare = await bareSubjects(client);
  const renamed = bare.map((b) => namespacedLegacySubject(b, rule));
  let rows = 0;
  for (const { table, column, where } of subjectColumns) {
    const result = await client.query(
      `UPDATE ${table} t SET ${column} = m.new FROM unnest($1::text[], $2::text[]) AS m(old, new)
        WHERE t.${column} = m.old${where ? ` AND t.${where}` : ''}`,
      [bare, renamed],
    );
    rows += result.rowCount ?? 0;
  }
  // A person writer's subject is repeated in the event details.
  await client.query(
    `UPDATE resource_events t SET details = jsonb_set(t.details, '{writer,subject}', to_jsonb(m.new))
       FROM unnest($1::text[], $2::text[]) AS m(old, new)
      WHERE t.details #>> '{writer,kind}' = 'person' AND t.details #>> '{writer,subject}' = m.old`,
    [bare, renamed],
  );
  const aliases = await client.query(
    `UPDATE resource_aliases t SET uri = m.new || substr(t.uri, length(m.old) + 1)
       FROM unnest($1::text[], $2::text[]) AS m(old, new)
      WHERE left(t.uri, length(m.old)) = m.old`,
    [bare.map(personUriPrefix), renamed.map(personUriPrefix)],
  );
  rows += aliases.rowCount ?? 0;

  const audit = await client.query<{ subject: string; auth_type: string }>('SELECT DISTINCT subject, auth_type FROM audit_log');
  const audited = await client.query(
    `UPDATE audit_log t SET subject = m.new FROM unnest($1::text[], $2::text[], $3::text[]) AS m(old, auth_type, new)
      WHERE t.subject = m.old AND t.auth_type = m.auth_type`,
    [
      audit.rows.map((r) => r.subject),
      audit.rows.map((r) => r.auth_type),
      audit.rows.map((r) => namespacedLegacySubject(r.subject, rule, r.auth_type)),
    ],
  );
  return rows + (audited.rowCount ?? 0);
}

/**
 * Namespaces every stored subject once (the first api to start after migration 0005 does it; the
 * others wait on the row lock and find it done). Returns the number of rows rewritten, or
 * undefined when it had been done before. A failure rolls everything back and stops startup.
 */
export async function namespaceLegacySubjects(
  db: Db,
  opts: { apiKeyNames: readonly string[]; oidcIssuer?: string | undefined; log?: Logger },
): Promise<number | undefined> {
  try {
    return await withTransaction(db, async (client) => {
      const marker = await client.query<{ migrated_at: Date | null }>('SELECT migrated_at FROM subject_namespace_migration FOR UPDATE');
      // Done before, or the marker row is gone: either way nothing here may be rewritten again.
      if (marker.rows[0]?.migrated_at !== null) return undefined;
      const stored = await client.query<{ name: string }>('SELECT name FROM api_keys');
      const rule = { apiKeyNames: new Set([...opts.apiKeyNames, ...stored.rows.map((r) => r.name)]), oidcIssuer: opts.oidcIssuer };
      const rows = await rename(client, rule);
      await client.query('UPDATE subject_namespace_migration SET migrated_at = now(), rewritten_rows = $1', [rows]);
      opts.log?.info({ rows }, 'stored subjects namespaced by authentication type');
      return rows;
    });
  } catch (error) {
    throw new Error(`namespacing stored subjects failed, nothing was changed: ${(error as Error).message}`, { cause: error });
  }
}
