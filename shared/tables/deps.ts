/**
 * What table registration works with, and what every part of it shares: the engine of a
 * connection, reading and scanning a version, writing a corrected copy, the table locks.
 */
import type { Readable } from 'node:stream';
import type { Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { actorOrigin, type ResourceActor, type ResourceJobHandOff, type ResourceService, type ResourceView } from '../resources/index.js';
import type { SqlToolkit } from '../sql/index.js';
import type { ScratchStorage, StorageLocation } from '../sql/scratch/index.js';
import { TableEngine } from './engine.js';
import { fileLockKey, nameLockKey, withTableLocks, type TableLockOptions } from './lock.js';
import { tableObjectName, versionDirectory, versionObject, type VersionObject } from './layout.js';
import { correctionSummary, INLINE_CORRECTION_BYTES, TableError, type ScanReport, type TableFormat } from './rules.js';
import { correctedStream, scanTable } from './scan.js';

export interface TableDeps {
  db: Db;
  resources: ResourceService;
  /** The SQL connections tables are registered on (their scratch catalogs). */
  sql: Pick<SqlToolkit, 'connection' | 'connections' | 'defaultConnection'>;
  /** The platform's storage: the managed-resources connection and bucket (the scratch catalogs read it). */
  storage: ScratchStorage;
  /** Starts the registerTable jobs recorded in the outbox at once (this process's dispatcher); without it a sweeper does. */
  jobs?: ResourceJobHandOff;
  log: Pick<Logger, 'warn'>;
  clock?: () => Date;
  /** Corrections of files up to this size run inline (default INLINE_CORRECTION_BYTES). */
  inlineCorrectionBytes?: number;
  /** The table locks' lease and waits (default TABLE_LOCK_DEFAULTS). */
  locks?: TableLockOptions;
}

export function engineOf(deps: Pick<TableDeps, 'sql' | 'storage'>, connection: string): TableEngine {
  let sqlConnection;
  try {
    sqlConnection = deps.sql.connection(connection);
  } catch (error) {
    throw new TableError('not_found', (error as Error).message);
  }
  return new TableEngine(sqlConnection, deps.storage);
}

export function inlineLimit(deps: TableDeps): number {
  return deps.inlineCorrectionBytes ?? INLINE_CORRECTION_BYTES;
}

async function open(deps: TableDeps, object: VersionObject): Promise<Readable> {
  return (await deps.storage.connection.store.getObject(object.bucket, object.key)).body;
}

/** A version's object and what the checks find in it. */
export async function scanVersion(deps: TableDeps, resourceId: string, version: number, format: TableFormat): Promise<{ object: VersionObject; report: ScanReport }> {
  const object = await versionObject(deps.db, resourceId, version);
  if (!object) throw new TableError('not_found', `version ${version} of the file no longer exists`);
  return { object, report: await scanTable(await open(deps, object), format) };
}

export function directoryOfVersion(deps: TableDeps, resourceId: string, version: number, format: TableFormat): Promise<StorageLocation> {
  return versionDirectory(deps.db, deps.storage.connection.store, resourceId, version, format);
}

/**
 * "Save a corrected copy": version `version`'s records rewritten (scan.ts) as the file's next
 * version, stored in a table's directory layout, with a change summary saying what was corrected.
 */
export async function writeCorrection(
  deps: TableDeps,
  actor: ResourceActor,
  resource: Pick<ResourceView, 'id' | 'content_type'>,
  version: number,
  format: TableFormat,
  found: { object: VersionObject; report: ScanReport },
): Promise<ResourceView> {
  return deps.resources.replaceContent(actor, resource.id, {
    body: correctedStream(await open(deps, found.object), format),
    content_type: resource.content_type,
    change_summary: correctionSummary(version, found.report),
    origin: actorOrigin(actor),
    object_name: tableObjectName(format),
    // A newer upload that landed meanwhile is never buried under a copy of the older version.
    if_head: version,
  });
}

/**
 * Runs `work` holding the file's table lock (lock.ts), and with `name` the lock of that table name
 * on its connection too: registrations, corrections and follow-ups of one file never interleave
 * (a correction is written once), and two files never register one name at once.
 */
export function withTableLock<T>(
  deps: Pick<TableDeps, 'db' | 'locks'> & Partial<Pick<TableDeps, 'log'>>,
  resourceId: string,
  work: () => Promise<T>,
  name?: { connection: string; table: string },
): Promise<T> {
  const keys = [fileLockKey(resourceId), ...(name ? [nameLockKey(name.connection, name.table)] : [])];
  return withTableLocks(deps, keys, work, deps.locks);
}
