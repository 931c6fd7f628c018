/**
 * Where a table reads a version's bytes: a directory holding exactly that file, since a Hive
 * external location is a directory (Trino) and a glob over it reads one file (DuckDB). Versions
 * written for tables (corrections) are stored that way from the start (`object_name`); any other
 * version is moved there the first time a table is registered over it — one server-side copy to
 * `<resource id>/<uuidv7>/data.<format>`, the version row repointed, the old object deleted — so
 * the bytes are never kept twice and never move again.
 */
import { uuidv7 } from '../crypto/index.js';
import type { Db } from '../db/index.js';
import type { ObjectStore } from '../objstore/index.js';
import type { StorageLocation } from '../sql/scratch/index.js';
import { TableError, type TableFormat } from './rules.js';

export interface VersionObject {
  bucket: string;
  key: string;
  size: number;
}

/** The stored object of a version, or undefined when the version is gone (pruned, deleted). */
export async function versionObject(db: Pick<Db, 'query'>, resourceId: string, version: number): Promise<VersionObject | undefined> {
  const res = await db.query<{ object_bucket: string; object_key: string; size: string }>(
    `SELECT object_bucket, object_key, size FROM resource_versions WHERE resource_id = $1 AND version = $2`,
    [resourceId, version],
  );
  const row = res.rows[0];
  return row ? { bucket: row.object_bucket, key: row.object_key, size: Number(row.size) } : undefined;
}

/** The directory of a key already laid out as `<id>/<version uuid>/<file>`, else undefined. */
export function directoryOf(resourceId: string, key: string): string | undefined {
  const segments = key.split('/');
  return segments.length === 3 && segments[0] === resourceId ? `${segments[0]}/${segments[1]}/` : undefined;
}

/** The name a table's file has inside its directory (Hive reads every file there that is not hidden). */
export function tableObjectName(format: TableFormat): string {
  return `data.${format}`;
}

export async function versionDirectory(db: Pick<Db, 'query'>, store: ObjectStore, resourceId: string, version: number, format: TableFormat): Promise<StorageLocation> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const object = await versionObject(db, resourceId, version);
    if (!object) throw new TableError('not_found', `version ${version} of the file no longer exists`);
    const directory = directoryOf(resourceId, object.key);
    if (directory !== undefined) return { bucket: object.bucket, prefix: directory };
    const key = `${resourceId}/${uuidv7()}/${tableObjectName(format)}`;
    await store.copyObject({ bucket: object.bucket, key: object.key }, { bucket: object.bucket, key });
    const moved = await db.query(`UPDATE resource_versions SET object_key = $4 WHERE resource_id = $1 AND version = $2 AND object_key = $3`, [resourceId, version, object.key, key]);
    // Lost to a concurrent move (or the version went): drop this copy and look again.
    await store.deleteObject(object.bucket, moved.rowCount === 1 ? object.key : key);
    if (moved.rowCount === 1) return { bucket: object.bucket, prefix: directoryOf(resourceId, key)! };
  }
  throw new TableError('conflict', `version ${version} of the file moved while it was being registered; try again`);
}
