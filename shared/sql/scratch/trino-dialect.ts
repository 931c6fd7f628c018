/**
 * The scratch catalog on Trino: a Hive connector catalog. Tables are external tables
 * (`external_location`, `partitioned_by`), partitions go through `system.register_partition` /
 * `unregister_partition`, views are SECURITY INVOKER so reading one follows the reader's grants.
 * The catalog must reach the platform's storage over S3 (docs/sql.md lists its properties).
 */
import type { TrinoEngine } from '../trino-engine.js';
import { SqlEngineError, type Row } from '../types.js';
import type { ProbeStep, ScratchDialect, ScratchStorage } from './dialect.js';
import { sqlIdent, sqlString } from './rules.js';
import { ScratchError, type ExternalTable, type FileTable, type ScratchColumnType, type StorageLocation } from './types.js';

const statementTimeoutMs = 60_000;

const trinoTypes: Record<ScratchColumnType, string> = {
  varchar: 'varchar',
  bigint: 'bigint',
  double: 'double',
  boolean: 'boolean',
  timestamp: 'timestamp(6)',
};

const array = (values: readonly string[]) => `ARRAY[${values.map(sqlString).join(', ')}]`;

export class TrinoScratchDialect implements ScratchDialect {
  readonly engine = 'trino' as const;

  constructor(
    readonly trino: TrinoEngine,
    readonly catalog: string,
    readonly schema: string,
  ) {}

  relation(name: string): string {
    return `${sqlIdent(this.catalog)}.${sqlIdent(this.schema)}.${sqlIdent(name)}`;
  }

  partitionsRelation(table: string): string {
    return this.relation(`${table}$partitions`);
  }

  locate(location: StorageLocation): string {
    return `s3://${location.bucket}/${location.prefix}`;
  }

  storageGap(storage: ScratchStorage): string | undefined {
    if (storage.connection.driver === 's3') return undefined;
    return `Trino reads the platform's storage only over S3, and toolkits.objstore.${storage.connection.name} uses the filesystem driver: store managed resources on S3 (resources.managed.connection) to use catalog ${this.catalog}`;
  }

  async preflight(): Promise<void> {
    const rows = await this.read(`SELECT connector_name FROM system.metadata.catalogs WHERE catalog_name = ${sqlString(this.catalog)}`);
    const connector = rows[0]?.[0];
    if (connector === undefined) throw new ScratchError(`catalog ${this.catalog} does not exist on the Trino server: add a Hive catalog of that name (docs/sql.md)`);
    if (connector !== 'hive') throw new ScratchError(`catalog ${this.catalog} uses connector ${String(connector)}; the scratch catalog must be a Hive connector catalog (connector.name=hive)`);
  }

  async ensureSchema(): Promise<void> {
    await this.#run(`CREATE SCHEMA IF NOT EXISTS ${sqlIdent(this.catalog)}.${sqlIdent(this.schema)}`);
  }

  async createExternalTable(table: ExternalTable): Promise<void> {
    const columns = [...table.columns.map((c) => `${sqlIdent(c.name)} ${trinoTypes[c.type]}`), ...table.partitionColumns.map((c) => `${sqlIdent(c)} varchar`)];
    await this.#run(
      `CREATE TABLE IF NOT EXISTS ${this.relation(table.name)} (${columns.join(', ')}) WITH (` +
        `external_location = ${sqlString(this.locate(table.location))}, format = ${sqlString(table.format === 'parquet' ? 'PARQUET' : 'JSON')}, ` +
        `partitioned_by = ${array(table.partitionColumns)})`,
    );
  }

  async createFileTable(table: FileTable): Promise<void> {
    // Hive's CSV serde: every column varchar, matched to the header's positions (the header line skipped); JSON: to the keys.
    const options =
      table.format === 'json_lines'
        ? `format = 'JSON'`
        : `format = 'CSV', skip_header_line_count = 1${table.format === 'tsv' ? `, csv_separator = ${sqlString('\t')}` : ''}`;
    await this.#run(
      `CREATE TABLE IF NOT EXISTS ${this.relation(table.name)} (${table.columns.map((c) => `${sqlIdent(c)} varchar`).join(', ')}) ` +
        `WITH (external_location = ${sqlString(this.locate(table.location))}, ${options})`,
    );
  }

  async registerPartition(table: ExternalTable, values: readonly string[], location: StorageLocation): Promise<void> {
    try {
      await this.#run(
        `CALL ${sqlIdent(this.catalog)}.system.register_partition(schema_name => ${sqlString(this.schema)}, table_name => ${sqlString(table.name)}, ` +
          `partition_columns => ${array(table.partitionColumns)}, partition_values => ${array(values)}, location => ${sqlString(this.locate(location))})`,
      );
    } catch (error) {
      if (!(error instanceof SqlEngineError && error.details.errorName === 'ALREADY_EXISTS')) throw error;
    }
  }

  async unregisterPartition(table: ExternalTable, values: readonly string[]): Promise<void> {
    try {
      await this.#run(
        `CALL ${sqlIdent(this.catalog)}.system.unregister_partition(schema_name => ${sqlString(this.schema)}, table_name => ${sqlString(table.name)}, ` +
          `partition_columns => ${array(table.partitionColumns)}, partition_values => ${array(values)})`,
      );
    } catch (error) {
      if (!(error instanceof SqlEngineError && error.details.errorName === 'NOT_FOUND')) throw error;
    }
  }

  async listPartitions(table: ExternalTable, leading: readonly string[] = []): Promise<string[][]> {
    const where = leading.map((v, i) => `${sqlIdent(table.partitionColumns[i]!)} = ${sqlString(v)}`).join(' AND ');
    try {
      const rows = await this.read(`SELECT ${table.partitionColumns.map(sqlIdent).join(', ')} FROM ${this.partitionsRelation(table.name)}${where ? ` WHERE ${where}` : ''}`);
      return rows.map((r) => r.map(String));
    } catch (error) {
      if (error instanceof SqlEngineError && error.details.errorName === 'TABLE_NOT_FOUND') return [];
      throw error;
    }
  }

  async createOrReplaceView(name: string, select: string): Promise<void> {
    await this.#run(`CREATE OR REPLACE VIEW ${this.relation(name)} SECURITY INVOKER AS ${select}`);
  }

  async dropView(name: string): Promise<void> {
    await this.#run(`DROP VIEW IF EXISTS ${this.relation(name)}`);
  }

  async dropTable(name: string): Promise<void> {
    await this.#run(`DROP TABLE IF EXISTS ${this.relation(name)}`);
  }

  read(select: string): Promise<Row[]> {
    return this.#run(select);
  }

  explainFailure(step: ProbeStep, error: unknown): string | undefined {
    const message = error instanceof Error ? error.message : String(error);
    const property = (name: string, what: string) => `catalog ${this.catalog} ${what}: set ${name} in its catalog properties`;
    if (/register_partition procedure is disabled/i.test(message)) return property('hive.allow-register-partition-procedure=true', 'does not allow register_partition');
    if (/configured precision is MILLISECONDS|configured precision is NANOSECONDS/i.test(message)) {
      return property('hive.timestamp-precision=MICROSECONDS', 'keeps timestamps at another precision than the microseconds of the platform\'s files');
    }
    if (/non-managed Hive table|non-managed-table/i.test(message)) return property('hive.non-managed-table-creates-enabled=true', 'does not allow external tables');
    if (step === 'create' || step === 'register' || step === 'read') {
      return (
        `catalog ${this.catalog} cannot reach the platform's storage (bucket ${message.match(/s3:\/\/([^/\s]+)/)?.[1] ?? 'of managed resources'}): ${message}. ` +
        'Its S3 file system must point at the same store: fs.native-s3.enabled=true, s3.endpoint, s3.region, s3.path-style-access and credentials that may read and list it'
      );
    }
    return undefined;
  }

  async #run(sql: string): Promise<Row[]> {
    const cursor = await this.trino.start(sql, { signal: AbortSignal.timeout(statementTimeoutMs) });
    const rows: Row[] = [];
    for (let page = await cursor.nextPage(); page; page = await cursor.nextPage()) rows.push(...page);
    return rows;
  }
}
