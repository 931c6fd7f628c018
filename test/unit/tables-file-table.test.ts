/**
 * A registered table's file table in the scratch catalog (shared/sql/scratch: checkFileTable and
 * DuckDB's view over the file): every name and location is checked before any SQL is written, as
 * for the catalog's other tables, and the DuckDB view reads exactly the version's directory.
 */
import { describe, expect, it } from 'vitest';
import { fileViewSelect } from '../../shared/sql/scratch/duckdb-views.js';
import { checkFileTable } from '../../shared/sql/scratch/rules.js';
import type { FileTable } from '../../shared/sql/scratch/index.js';

const orders: FileTable = { name: 'sales_orders__v2', format: 'csv', columns: ['id', 'name'], location: { bucket: 'platform-resources', prefix: 'r-1/v-1/' } };

describe('file tables', () => {
  it('names, columns, format and location are checked', () => {
    expect(checkFileTable(orders)).toBe(orders);
    expect(() => checkFileTable({ ...orders, name: 'x"; DROP TABLE t; --' })).toThrow(/table name/);
    expect(() => checkFileTable({ ...orders, columns: ['id', 'id'] })).toThrow(/names column id twice/);
    expect(() => checkFileTable({ ...orders, columns: ['Bad Name'] })).toThrow(/column name/);
    expect(() => checkFileTable({ ...orders, format: 'parquet' as FileTable['format'] })).toThrow(/allowed: csv, tsv, json_lines/);
    expect(() => checkFileTable({ ...orders, location: { bucket: 'platform-resources', prefix: 'r-1/../other/' } })).toThrow(/location prefix/);
  });

  it('DuckDB reads the objects of the one directory: read_csv with the header and delimiter, or read_json of lines', () => {
    expect(fileViewSelect(orders, '/data/b/r-1/v-1')).toBe(`SELECT * FROM read_csv('/data/b/r-1/v-1/o_*', header = true, delim = ',', quote = '"', escape = '"')`);
    expect(fileViewSelect({ ...orders, format: 'tsv' }, "/d/it's")).toBe(`SELECT * FROM read_csv('/d/it''s/o_*', header = true, delim = '\t', quote = '"', escape = '"')`);
    expect(fileViewSelect({ ...orders, format: 'json_lines' }, '/d')).toBe(`SELECT * FROM read_json('/d/o_*', format = 'newline_delimited')`);
  });
});
