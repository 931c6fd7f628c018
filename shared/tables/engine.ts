/**
 * A registered table in its connection's scratch catalog (shared/sql/scratch), over the directory
 * that holds exactly one file version's bytes (layout.ts), as the catalog's file table:
 * - DuckDB: the view `<table>` itself (read_csv / read_json; types sniffed by DuckDB);
 * - Trino: the external table `<table>__v<version>` (every column varchar, named from the header
 *   or the keys) behind the view `<table>`, so moving to another version replaces the view in one
 *   statement and queries never see the table missing.
 */
import type { SqlConnection } from '../sql/index.js';
import { scratchCatalog, ScratchError, type FileTable, type ScratchCatalog, type ScratchStorage, type StorageLocation } from '../sql/scratch/index.js';
import { columnNames, MAX_TABLE_COLUMNS, TableError, versionRelation, type TableFormat } from './rules.js';

/** What a relation is built over. */
export interface VersionFile {
  format: TableFormat;
  version: number;
  /** The directory holding exactly this version's file. */
  location: StorageLocation;
  /** Header names (CSV, TSV) or keys (NDJSON), from the scan. */
  columns: readonly string[];
}

/** NDJSON keys Trino can map a column to: names the scratch catalog accepts, first spelling kept. */
const ndjsonColumn = /^[a-z][a-z0-9_]{0,127}$/;

export class TableEngine {
  readonly scratch: ScratchCatalog;

  constructor(
    readonly connection: SqlConnection,
    storage: ScratchStorage,
  ) {
    try {
      this.scratch = scratchCatalog(connection, storage);
    } catch (error) {
      throw new TableError('unavailable', (error as Error).message);
    }
  }

  /**
   * Points `table` at `file`; answers the engine object that reads it (the view itself on DuckDB,
   * the version's external table on Trino). Again with the same version: nothing changes.
   */
  async register(table: string, file: VersionFile): Promise<string> {
    try {
      return await this.#register(table, file);
    } catch (error) {
      // The scratch catalog's refusals (a driver it cannot read, a name or place it will not take)
      // are answers, not failures to retry.
      if (error instanceof ScratchError) throw new TableError('unavailable', error.message);
      throw error;
    }
  }

  async #register(table: string, file: VersionFile): Promise<string> {
    if (this.connection.engine.kind === 'duckdb') {
      await this.#restore(table, table, file);
      return table;
    }
    const relation = versionRelation(table, file.version);
    const fileTable: FileTable = { name: relation, format: scratchFormat(file.format), columns: trinoColumns(file), location: file.location };
    await this.scratch.createFileTable(fileTable);
    await this.#restore(table, relation, file);
    return relation;
  }

  /**
   * Writes again the table callers query of a registration that stays at its version (`relation`
   * as register answered it), so a pass over the file puts back whatever was dropped or replaced
   * by hand: DuckDB's view over the version's file, Trino's view over the version's table.
   */
  async restore(table: string, relation: string, file: Pick<VersionFile, 'format' | 'location'>): Promise<void> {
    try {
      await this.#restore(table, relation, file);
    } catch (error) {
      if (error instanceof ScratchError) throw new TableError('unavailable', error.message);
      throw error;
    }
  }

  async #restore(table: string, relation: string, file: Pick<VersionFile, 'format' | 'location'>): Promise<void> {
    if (this.connection.engine.kind === 'duckdb') await this.scratch.createFileTable({ name: table, format: scratchFormat(file.format), columns: [], location: file.location });
    else await this.scratch.createOrReplaceView(table, `SELECT * FROM ${this.scratch.relation(relation)}`);
  }

  /** Drops an engine object left behind by a move (Trino's previous version table). */
  async dropRelation(table: string, relation: string): Promise<void> {
    if (relation !== table) await this.scratch.dropTable(relation);
  }

  /** Drops the table callers query and the engine object under it. */
  async drop(table: string, relation: string | null): Promise<void> {
    await this.scratch.dropView(table);
    if (relation) await this.dropRelation(table, relation);
  }
}

const scratchFormat = (format: TableFormat): FileTable['format'] => (format === 'ndjson' ? 'json_lines' : format);

/** The columns Trino declares: every column varchar, by header position (CSV, TSV) or key name (NDJSON). */
function trinoColumns(file: VersionFile): string[] {
  const names = file.format === 'ndjson' ? file.columns.map((c) => c.toLowerCase()).filter((c, i, all) => ndjsonColumn.test(c) && all.indexOf(c) === i) : columnNames(file.columns);
  if (names.length === 0) throw new TableError('invalid', 'the file has no columns Trino can name (a header row, or keys of letters, digits and _)');
  if (names.length > MAX_TABLE_COLUMNS) throw new TableError('invalid', `the file has ${names.length} columns; a table here has at most ${MAX_TABLE_COLUMNS}`);
  return names;
}
