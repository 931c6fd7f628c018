/**
 * A webhook source's table (spec document 3, "Webhook table") in the scratch catalog of its
 * connection: `webhook_{source}_raw` over the raw segments, `webhook_{source}_compacted` over the
 * compacted windows' Parquet files, and the view `webhook_{source}` that shows each event id of a
 * window once — the earliest received, the row its compaction keeps — from whichever of the two
 * holds it. So a window is never missing nor served twice whatever the two tables hold at the
 * moment of a query: before its compaction (raw only), after it (both: the same rows), while a
 * recompaction moves it to a new version (two versions registered for a moment), and for events
 * that landed after its last compaction (raw only, until the next). Same SQL on Trino (Hive) and
 * DuckDB through shared/sql/scratch.
 */
import type { SqlToolkit } from '../sql/index.js';
import { checkScratch, scratchCatalog, sqlIdent, type ExternalTable, type ScratchCatalog, type ScratchCheck, type ScratchColumn, type ScratchStorage, type StorageLocation } from '../sql/scratch/index.js';
import { rawPrefix, rawWindowPrefix, webhookTableName, windowValues, type Window } from './layout.js';

/** The columns of every webhook table, in the spec's order (dt, hour, minute are the partition columns). */
export const webhookColumns: readonly ScratchColumn[] = [
  { name: 'received_at', type: 'timestamp' },
  { name: 'landed_at', type: 'timestamp' },
  { name: 'event_id', type: 'varchar' },
  { name: 'event_type', type: 'varchar' },
  { name: 'key', type: 'varchar' },
  { name: 'content_hash', type: 'varchar' },
  { name: 'replica', type: 'varchar' },
  { name: 'payload', type: 'varchar' },
];
const partitionColumns = ['dt', 'hour', 'minute'] as const;
/**
 * The compacted table is partitioned by window and resource version, so a recompaction registers the
 * new version before it unregisters the old one: Trino's procedures cannot move a partition.
 */
const compactedPartitionColumns = [...partitionColumns, 'version'] as const;

/**
 * The order in which the earliest received copy of an event comes first; ties (the same event
 * received in the same microsecond) broken by the remaining columns, so the choice never depends on
 * reading order. The compaction keeps that copy and the view shows it.
 */
export const earliestReceivedFirst = ['received_at', 'landed_at', 'replica', 'content_hash', 'payload', 'event_type', 'key'] as const;

/** What the table needs of a source. */
export interface WebhookTableSource {
  name: string;
  connection: string;
}

/** The three relations of a source's table. */
export interface WebhookTableNames {
  view: string;
  raw: ExternalTable;
  compacted: ExternalTable;
}

export function webhookTables(source: string, bucket: string): WebhookTableNames {
  const view = webhookTableName(source);
  return {
    view,
    raw: { name: `${view}_raw`, columns: webhookColumns, partitionColumns, format: 'json_gz', location: { bucket, prefix: rawPrefix(source) } },
    compacted: { name: `${view}_compacted`, columns: webhookColumns, partitionColumns: compactedPartitionColumns, format: 'parquet', location: { bucket, prefix: `webhooks/${source}/compacted/` } },
  };
}

/** The view: one row per event id of each window, the earliest received, from the compacted and raw rows together. */
export function webhookViewSelect(scratch: ScratchCatalog, names: WebhookTableNames): string {
  const all = [...webhookColumns.map((c) => c.name), ...partitionColumns].map(sqlIdent).join(', ');
  const rank = sqlIdent('__webhook_copy');
  return (
    `SELECT ${all} FROM (` +
    `SELECT ${all}, row_number() OVER (PARTITION BY ${[...partitionColumns, 'event_id'].map(sqlIdent).join(', ')} ORDER BY ${earliestReceivedFirst.map(sqlIdent).join(', ')}) AS ${rank} ` +
    `FROM (SELECT ${all} FROM ${scratch.relation(names.compacted.name)} UNION ALL SELECT ${all} FROM ${scratch.relation(names.raw.name)}) AS copies` +
    `) AS ranked WHERE ${rank} = 1`
  );
}

/** The webhook tables of every source, over the platform's storage. */
export class WebhookTableCatalog {
  /** One scratch catalog per connection, so its once-per-catalog work (the schema) is done once. */
  readonly #catalogs = new Map<string, ScratchCatalog>();

  constructor(
    readonly sql: Pick<SqlToolkit, 'connection'>,
    readonly storage: ScratchStorage,
  ) {}

  /** Whether `connection`'s scratch catalog can hold webhook tables (source creation refuses with the reason). */
  check(connection: string): Promise<ScratchCheck> {
    return checkScratch(this.sql.connection(connection), this.storage);
  }

  scratch(source: WebhookTableSource): ScratchCatalog {
    let catalog = this.#catalogs.get(source.connection);
    if (!catalog) {
      catalog = scratchCatalog(this.sql.connection(source.connection), this.storage);
      this.#catalogs.set(source.connection, catalog);
    }
    return catalog;
  }

  names(source: WebhookTableSource): WebhookTableNames {
    return webhookTables(source.name, this.storage.bucket);
  }

  /**
   * Creates the raw and compacted tables and the view; again, it puts back whatever of them is
   * missing or not the platform's (DuckDB rewrites the tables' views from its metastore, Trino
   * creates a missing table; the view is replaced). Every compaction calls it.
   */
  async create(source: WebhookTableSource): Promise<void> {
    const scratch = this.scratch(source);
    const names = this.names(source);
    await scratch.createExternalTable(names.raw);
    await scratch.createExternalTable(names.compacted);
    await scratch.createOrReplaceView(names.view, webhookViewSelect(scratch, names));
  }

  /** Removes the view and both tables (their files stay for the retention pass). */
  async drop(source: WebhookTableSource): Promise<void> {
    const scratch = this.scratch(source);
    const names = this.names(source);
    await scratch.dropView(names.view);
    await scratch.dropTable(names.raw.name);
    await scratch.dropTable(names.compacted.name);
  }

  /**
   * Registers version `version` of the window's compacted file over `location` (the directory
   * holding exactly that file), then unregisters the window's other versions: for a moment the view
   * reads both, one row per event id all the same. Repeated: nothing changes.
   */
  async registerCompactedWindow(source: WebhookTableSource, window: Pick<Window, 'dt' | 'hour' | 'minute'>, version: number, location: StorageLocation): Promise<void> {
    const scratch = this.scratch(source);
    const { compacted } = this.names(source);
    const values = [...windowValues(window), String(version)];
    await scratch.registerPartition(compacted, values, location);
    for (const other of await scratch.listPartitions(compacted, windowValues(window))) {
      if (other[3] !== values[3]) await scratch.unregisterPartition(compacted, other);
    }
  }

  /** Unregisters every version of the window's compacted file: the view reads it from raw, if any. */
  async unregisterCompactedWindow(source: WebhookTableSource, window: Pick<Window, 'dt' | 'hour' | 'minute'>): Promise<void> {
    const scratch = this.scratch(source);
    const { compacted } = this.names(source);
    for (const values of await scratch.listPartitions(compacted, windowValues(window))) await scratch.unregisterPartition(compacted, values);
  }

  /** Registers a window of raw segments once its first segment is written (again: nothing changes). */
  async registerRawWindow(source: WebhookTableSource, window: Pick<Window, 'dt' | 'hour' | 'minute'>): Promise<void> {
    const names = this.names(source);
    await this.scratch(source).registerPartition(names.raw, windowValues(window), { bucket: this.storage.bucket, prefix: rawWindowPrefix(source.name, window) });
  }
}
