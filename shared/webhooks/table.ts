/**
 * A webhook source's table (spec document 3, "Webhook table") in the scratch catalog of its
 * connection: `webhook_{source}_raw` over the raw segments, `webhook_{source}_compacted` over the
 * compacted windows' Parquet files, and the view `webhook_{source}` that reads a window from
 * compacted once its partition is registered and from raw until then — never missing, never twice.
 * Same SQL on Trino (Hive) and DuckDB through shared/sql/scratch.
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
    compacted: { name: `${view}_compacted`, columns: webhookColumns, partitionColumns, format: 'parquet', location: { bucket, prefix: `webhooks/${source}/compacted/` } },
  };
}

/** The view: compacted rows, and raw rows of the windows whose compacted partition is not registered. */
export function webhookViewSelect(scratch: ScratchCatalog, names: WebhookTableNames): string {
  const all = [...webhookColumns.map((c) => c.name), ...partitionColumns].map(sqlIdent);
  const of = (alias: string) => all.map((c) => `${alias}.${c}`).join(', ');
  const sameWindow = partitionColumns.map((c) => `p.${sqlIdent(c)} = r.${sqlIdent(c)}`).join(' AND ');
  return (
    `SELECT ${of('c')} FROM ${scratch.relation(names.compacted.name)} c ` +
    `UNION ALL SELECT ${of('r')} FROM ${scratch.relation(names.raw.name)} r ` +
    `WHERE NOT EXISTS (SELECT 1 FROM ${scratch.partitionsRelation(names.compacted.name)} p WHERE ${sameWindow})`
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

  /** Creates the raw and compacted tables and the view (again: nothing changes). */
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
   * Places the window's compacted partition over `location` (the directory holding exactly its
   * Parquet file, the head version of its resource): the view reads the window from there from
   * the next query on. Again over the same location: nothing changes; over a new version's:
   * moved there, one registration.
   */
  async registerCompactedWindow(source: WebhookTableSource, window: Pick<Window, 'dt' | 'hour' | 'minute'>, location: StorageLocation): Promise<void> {
    await this.scratch(source).placePartition(this.names(source).compacted, windowValues(window), location);
  }

  /** Registers a window of raw segments once its first segment is written (again: nothing changes). */
  async registerRawWindow(source: WebhookTableSource, window: Pick<Window, 'dt' | 'hour' | 'minute'>): Promise<void> {
    const names = this.names(source);
    await this.scratch(source).registerPartition(names.raw, windowValues(window), { bucket: this.storage.bucket, prefix: rawWindowPrefix(source.name, window) });
  }
}
