/** The registrations (table `resource_tables`, migrations/0024_resource_tables.sql). */
import type { Db } from '../db/index.js';
import { attachedByFile, type AttachedTables } from '../search/attached-tables.js';
import { TableError, type TableFormat } from './rules.js';

type Queryable = Pick<Db, 'query'>;

export interface Registration {
  id: string;
  resource_id: string;
  connection: string;
  catalog: string;
  schema_name: string;
  table_name: string;
  format: TableFormat;
  version: number | null;
  relation: string | null;
  follow: boolean;
  corrects: boolean;
  correcting: boolean;
  registered_by: string;
  registered_at: Date;
  updated_at: Date;
}

export async function registrationsOf(db: Queryable, resourceId: string): Promise<Registration[]> {
  const res = await db.query<Registration>(`SELECT * FROM resource_tables WHERE resource_id = $1 ORDER BY connection, table_name`, [resourceId]);
  return res.rows;
}

export async function registrationByName(db: Queryable, connection: string, table: string): Promise<Registration | undefined> {
  const res = await db.query<Registration>(`SELECT * FROM resource_tables WHERE connection = $1 AND table_name = $2`, [connection, table]);
  return res.rows[0];
}

/** Where a page of registrations starts: after this (connection, table name), in that order. */
export interface RegistrationPosition {
  connection: string;
  table: string;
}

/**
 * Up to `limit` registrations in (connection, table name) order after `after`: over one of
 * `resourceIds` (all with undefined), on `connection` (all with undefined).
 */
export async function registrationsPage(
  db: Queryable,
  query: { resourceIds?: readonly string[]; connection?: string; after?: RegistrationPosition; limit: number },
): Promise<Registration[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (query.resourceIds) where.push(`resource_id = ANY(${param(query.resourceIds)}::text[])`);
  if (query.connection !== undefined) where.push(`connection = ${param(query.connection)}`);
  if (query.after) where.push(`(connection, table_name) > (${param(query.after.connection)}, ${param(query.after.table)})`);
  const res = await db.query<Registration>(
    `SELECT * FROM resource_tables ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY connection, table_name LIMIT ${param(query.limit)}`,
    params,
  );
  return res.rows;
}

/**
 * Inserts the registration, or rewrites the one of the same connection and name over the same
 * file. A name held by another file is refused, never passed over: the caller holds the name's
 * lock and checked, so this is the last guard that a view and its row agree.
 */
export async function saveRegistration(db: Queryable, r: Registration): Promise<void> {
  const res = await db.query(
    `INSERT INTO resource_tables (id, resource_id, connection, catalog, schema_name, table_name, format, version, relation, follow, corrects, correcting, registered_by, registered_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (connection, table_name) DO UPDATE SET
       format = EXCLUDED.format, version = EXCLUDED.version, relation = EXCLUDED.relation, follow = EXCLUDED.follow, corrects = EXCLUDED.corrects,
       correcting = EXCLUDED.correcting, registered_by = EXCLUDED.registered_by, registered_at = EXCLUDED.registered_at, updated_at = EXCLUDED.updated_at
     WHERE resource_tables.resource_id = EXCLUDED.resource_id`,
    [r.id, r.resource_id, r.connection, r.catalog, r.schema_name, r.table_name, r.format, r.version, r.relation, r.follow, r.corrects, r.correcting, r.registered_by, r.registered_at, r.updated_at],
  );
  if (res.rowCount !== 1) throw new TableError('conflict', `table ${r.table_name} on connection ${r.connection} is registered over another file`, { table: r.table_name });
}

/** The file's tables stop waiting for a correction that cannot be made (they stay where they are). */
export async function stopCorrecting(db: Queryable, resourceId: string, now: Date): Promise<void> {
  await db.query(`UPDATE resource_tables SET correcting = false, updated_at = $2 WHERE resource_id = $1 AND correcting`, [resourceId, now]);
}

/** Moves a registration to `version` (its relation over it); the correction, if it ran, is done. */
export async function moveRegistration(db: Queryable, id: string, version: number, relation: string, now: Date): Promise<void> {
  await db.query(`UPDATE resource_tables SET version = $2, relation = $3, correcting = false, updated_at = $4 WHERE id = $1`, [id, version, relation, now]);
}

export async function deleteRegistration(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM resource_tables WHERE id = $1`, [id]);
}

export async function countRegistrations(db: Queryable, resourceId: string): Promise<number> {
  const res = await db.query<{ n: string }>(`SELECT count(*) AS n FROM resource_tables WHERE resource_id = $1`, [resourceId]);
  return Number(res.rows[0]?.n ?? 0);
}

/** The tables registered over each file (search shows them with it); one still in its first correction is not queryable yet. */
export function registeredTables(db: Queryable): AttachedTables {
  return async (resourceIds) => {
    const res = await db.query<{ resource_id: string; connection: string; table_name: string }>(
      'SELECT resource_id, connection, table_name FROM resource_tables WHERE resource_id = ANY($1::text[]) AND version IS NOT NULL ORDER BY connection, table_name',
      [resourceIds],
    );
    return attachedByFile(res.rows.map((row) => ({ resourceId: row.resource_id, connection: row.connection, table: row.table_name })));
  };
}
