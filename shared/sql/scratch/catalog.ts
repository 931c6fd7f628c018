/**
 * The scratch catalog over an engine's dialect: every name, value and location is checked before
 * the engine sees it, a partition is registered only over a location that holds a file (so both
 * engines serve it the same from the first query), and check() proves the whole path on a probe
 * table in the platform's storage.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { ProbeStep, ScratchDialect, ScratchStorage } from './dialect.js';
import { checkFileTable, checkLocation, checkName, checkPartitionValues, checkTable, isReadableName } from './rules.js';
import { ScratchError, type ExternalTable, type FileTable, type ScratchCatalog, type ScratchCheck, type StorageLocation } from './types.js';

export class DialectScratchCatalog implements ScratchCatalog {
  constructor(
    readonly connection: string,
    readonly dialect: ScratchDialect,
    readonly storage: ScratchStorage,
  ) {}

  get engine() {
    return this.dialect.engine;
  }
  get catalog() {
    return this.dialect.catalog;
  }
  get schema() {
    return this.dialect.schema;
  }

  relation(name: string): string {
    return this.dialect.relation(checkName(name));
  }

  partitionsRelation(table: string): string {
    return this.dialect.partitionsRelation(checkName(table, 'table name'));
  }

  async createExternalTable(table: ExternalTable): Promise<void> {
    this.#checkBucket(checkTable(table).location);
    await this.dialect.ensureSchema();
    await this.dialect.createExternalTable(table);
  }

  async createFileTable(table: FileTable): Promise<void> {
    this.#checkBucket(checkFileTable(table).location);
    await this.dialect.ensureSchema();
    await this.dialect.createFileTable(table);
  }

  async registerPartition(table: ExternalTable, values: readonly string[], location: StorageLocation): Promise<void> {
    await this.#checkPartition(table, values, location);
    await this.dialect.registerPartition(table, values, location);
  }

  async #checkPartition(table: ExternalTable, values: readonly string[], location: StorageLocation): Promise<void> {
    checkTable(table);
    checkPartitionValues(table, values);
    this.#checkBucket(checkLocation(location));
    if (!(await this.#holdsFile(location))) {
      throw new ScratchError(`partition ${values.join('/')} of ${table.name}: ${location.bucket}/${location.prefix} holds no file yet; register it after writing its first file`);
    }
  }

  async unregisterPartition(table: ExternalTable, values: readonly string[]): Promise<void> {
    checkPartitionValues(checkTable(table), values);
    await this.dialect.unregisterPartition(table, values);
  }

  async listPartitions(table: ExternalTable, leading: readonly string[] = []): Promise<string[][]> {
    checkTable(table);
    checkPartitionValues({ ...table, partitionColumns: table.partitionColumns.slice(0, leading.length) }, leading);
    const rows = await this.dialect.listPartitions(table, leading);
    return rows.sort((a, b) => a.join('\u0000').localeCompare(b.join('\u0000')));
  }

  async createOrReplaceView(name: string, select: string): Promise<void> {
    checkName(name, 'view name');
    await this.dialect.ensureSchema();
    await this.dialect.createOrReplaceView(name, select);
  }

  async dropView(name: string): Promise<void> {
    await this.dialect.dropView(checkName(name, 'view name'));
  }

  async dropTable(name: string): Promise<void> {
    await this.dialect.dropTable(checkName(name, 'table name'));
  }

  /**
   * The probe: a gzipped JSON lines file in the platform's storage, a partitioned table over it, one
   * partition registered, its row read back with a microsecond timestamp, then all of it removed.
   */
  async check(): Promise<ScratchCheck> {
    const gap = this.dialect.storageGap(this.storage);
    if (gap) return { ok: false, reason: gap };
    const id = randomBytes(6).toString('hex');
    const table: ExternalTable = {
      name: `platform_probe_${id}`,
      columns: [
        { name: 'id', type: 'varchar' },
        { name: 'written_at', type: 'timestamp' },
      ],
      partitionColumns: ['p'],
      format: 'json_gz',
      location: { bucket: this.storage.bucket, prefix: `scratch-probe/${id}/` },
    };
    const partition: StorageLocation = { bucket: this.storage.bucket, prefix: `scratch-probe/${id}/p=1/` };
    const key = `${partition.prefix}probe.jsonl.gz`;
    const where = `${this.dialect.locate(partition)}`;
    let step: ProbeStep = 'preflight';
    let created = false;
    try {
      await this.dialect.preflight();
      step = 'schema';
      await this.dialect.ensureSchema();
      await this.storage.connection.store.putObject(this.storage.bucket, key, gzipSync('{"id":"probe","written_at":"2026-01-02 03:04:05.123456"}\n'));
      step = 'create';
      await this.dialect.createExternalTable(table);
      created = true;
      step = 'register';
      await this.dialect.registerPartition(table, ['1'], partition);
      step = 'read';
      const rows = await this.dialect.read(`SELECT id, CAST(written_at AS VARCHAR), p FROM ${this.dialect.relation(table.name)}`);
      const [row] = rows;
      if (rows.length !== 1 || row?.[0] !== 'probe' || !String(row[1]).startsWith('2026-01-02 03:04:05.123456') || row[2] !== '1') {
        return { ok: false, reason: `catalog ${this.catalog} read ${JSON.stringify(rows)} from the probe file at ${where}, not the one row written: it does not read the platform's storage as written` };
      }
      return { ok: true };
    } catch (error) {
      const explained = error instanceof ScratchError ? error.message : this.dialect.explainFailure(step, error);
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: explained ?? `${probeWhat[step]} failed on catalog ${this.catalog}: ${message}` };
    } finally {
      if (created) await this.dialect.dropTable(table.name).catch(() => undefined);
      await this.storage.connection.store.deleteObject(this.storage.bucket, key).catch(() => undefined);
    }
  }

  #checkBucket(location: StorageLocation): void {
    if (location.bucket !== this.storage.bucket) {
      throw new ScratchError(`scratch tables read the platform's storage bucket ${this.storage.bucket}, not ${location.bucket}`);
    }
  }

  async #holdsFile(location: StorageLocation): Promise<boolean> {
    let continuationToken: string | undefined;
    do {
      const page = await this.storage.connection.store.listObjects(location.bucket, {
        prefix: location.prefix,
        delimiter: '/',
        maxKeys: 1000,
        ...(continuationToken ? { continuationToken } : {}),
      });
      if (page.objects.some((o) => isReadableName(o.key.slice(location.prefix.length)))) return true;
      continuationToken = page.nextContinuationToken;
    } while (continuationToken);
    return false;
  }
}

const probeWhat: Record<ProbeStep, string> = {
  preflight: 'checking the catalog',
  schema: 'creating the scratch schema',
  create: 'creating a probe table over the platform storage',
  register: 'registering a partition',
  read: "reading the platform's storage",
  view: 'creating a view',
};
