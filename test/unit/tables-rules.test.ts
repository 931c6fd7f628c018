/**
 * Table registration's pure rules (spec document 2, "Table registration"; docs/resources.md): the
 * name slug and persona prefix, the refusal message naming rows and columns, the text layer (UTF-8
 * or Windows-1252, line ends) and the streaming check and correction of CSV, TSV and NDJSON.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAll } from '../../shared/objstore/index.js';
import { correctedStream, scanTable } from '../../shared/tables/scan.js';
import {
  columnNames,
  decodeListCursor,
  defaultTableName,
  encodeListCursor,
  passesChecks,
  prefixedTableName,
  refusalMessage,
  tableFormat,
  TableError,
  tablePrefix,
} from '../../shared/tables/rules.js';
import { decodeUtf8OrWindows1252, LineEndStream } from '../../shared/tables/text.js';
import { CsvScanner, MAX_HEADER_CHARS } from '../../shared/tables/csv-scanner.js';
import { MAX_RECORD_CHARS } from '../../shared/tables/ndjson.js';
import { parse } from 'csv-parse/sync';

/** A body delivered in chunks of `size` bytes, to cross every boundary. */
const chunked = (bytes: Buffer, size: number) => Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));

async function corrected(bytes: Buffer, format: 'csv' | 'tsv' | 'ndjson', size = 3): Promise<string> {
  const { bytes: out } = await readAll(correctedStream(chunked(bytes, size), format), 1 << 20);
  return out.toString('utf8');
}

describe('table names', () => {
  it('the default name is a slug of the file name', () => {
    expect(defaultTableName('Q3 Orders (final).csv')).toBe('q3_orders_final');
    expect(defaultTableName('Café-Liste.tsv')).toBe('cafe_liste');
    expect(defaultTableName('2026 data.ndjson')).toBe('t_2026_data');
  });

  it('the persona is always the prefix: persona files take theirs, global files global_, personal files the caller’s active persona', () => {
    expect(prefixedTableName(tablePrefix({ kind: 'persona', name: 'Sales' }, 'finance'), 'orders')).toBe('sales_orders');
    expect(prefixedTableName(tablePrefix({ kind: 'global' }, 'sales'), 'orders')).toBe('global_orders');
    expect(prefixedTableName(tablePrefix({ kind: 'person' }, 'finance'), 'orders')).toBe('finance_orders');
    expect(prefixedTableName(tablePrefix({ kind: 'person' }, undefined), 'orders')).toBe('personal_orders');
    // A caller's name that already carries the prefix keeps it once; an injection is only a slug.
    expect(prefixedTableName('sales_', 'sales_orders')).toBe('sales_orders');
    expect(prefixedTableName('sales_', 'x"; DROP TABLE y; --')).toBe('sales_x_drop_table_y');
    expect(() => prefixedTableName('sales_', 'a'.repeat(120))).toThrow(/longer than/);
  });

  it('formats by extension, then media type', () => {
    expect(tableFormat('a.CSV', 'application/octet-stream')).toBe('csv');
    expect(tableFormat('a.tab', 'text/plain')).toBe('tsv');
    expect(tableFormat('a.jsonl', 'text/plain')).toBe('ndjson');
    expect(tableFormat('export', 'text/csv; charset=utf-8')).toBe('csv');
    expect(tableFormat('a.pdf', 'application/pdf')).toBeUndefined();
  });

  it('column names an engine maps by name are unique slugs', () => {
    expect(columnNames(['Name', 'name', '', 'Prix €'])).toEqual(['name', 'name_2', 'column_3', 'prix']);
  });
});

describe('the text layer', () => {
  it('keeps valid UTF-8 and reads every other byte as Windows-1252, across chunk boundaries', () => {
    const mixed = Buffer.concat([Buffer.from('né '), Buffer.from([0xe9, 0x80, 0x20]), Buffer.from('€')]);
    expect(decodeUtf8OrWindows1252(mixed, true)).toMatchObject({ text: 'né é€ €', invalid: 2 });
    const cut = decodeUtf8OrWindows1252(Buffer.from('a€').subarray(0, 3), false);
    expect(cut).toMatchObject({ text: 'a', invalid: 0 });
    expect(cut.rest.length).toBe(2);
  });

  it('normalises line ends outside quotes and counts carriage-return-only lines', async () => {
    const lines = new LineEndStream(",");
    const out = await readAll(Readable.from(['a,"x\r', 'y"\r', '\nb\r', 'c\r']).pipe(lines), 1000);
    expect(out.bytes.toString()).toBe('a,"x\ry"\nb\nc\n');
    expect(lines.crOnlyLines).toBe(2);
  });
});

describe('the CSV scanner reads quotes as csv-parse does', () => {
  it('a quote opens a cell only at its start; empty lines are no record; CRLF split across chunks is one line end', () => {
    const scanner = new CsvScanner(',');
    const out = ['\n\n"a,b",c\r', '\n1,x"y\r', '\n2,"p\nq"\r\r3,z'].map((t) => scanner.push(t)).join('') + scanner.end();
    expect(out).toBe('\n\n"a,b",c\n1,x"y\n2,"p\nq"\n\n3,z');
    expect(scanner.header).toBe('"a,b",c');
    expect({ records: scanner.records, broken: scanner.brokenRecords, columns: [...scanner.brokenColumns], crOnly: scanner.crOnlyLines }).toEqual({ records: 3, broken: 1, columns: [1], crOnly: 2 });
  });

  it('a header without a line end is refused past 1 MiB, and an unterminated quote stops the correction (never buffered whole)', async () => {
    await expect(scanTable(chunked(Buffer.alloc(MAX_HEADER_CHARS + 10, 'a'), 65536), 'csv')).rejects.toThrow(/header line is longer than/);
    const runaway = Buffer.concat([Buffer.from('a,b\n1,"'), Buffer.alloc(MAX_RECORD_CHARS + 10, 'x')]);
    await expect(corrected(runaway, 'csv', 1 << 20)).rejects.toThrow();
  });

  it('agrees with csv-parse on the records of a messy file', async () => {
    const text = 'h1,h2,h3\n1,"a ""quoted"" b",c\n2,"multi\nline","x"\n\n3,plain "quote",\n';
    const report = await scanTable(Readable.from([Buffer.from(text)]), 'csv');
    const parsed = parse(text, { relax_quotes: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
    expect(report).toMatchObject({ records: parsed.length - 1, columns: parsed[0], brokenRecords: 1, brokenColumns: ['h2'] });
  });
});

describe('the checks', () => {
  it('a clean CSV passes', async () => {
    const report = await scanTable(Readable.from([Buffer.from('id,name\n1,"a, b"\n2,c\n')]), 'csv');
    expect(report).toMatchObject({ records: 2, columns: ['id', 'name'], brokenRecords: 0, crOnlyLines: 0, invalidUtf8Bytes: 0 });
    expect(passesChecks(report)).toBe(true);
  });

  it('line breaks in cells: the refusal names how many rows and which columns', async () => {
    const csv = Buffer.from('id,note,city\n1,"two\nlines",x\n2,ok,"a\r\nb"\n3,"c\rd","e\nf"\n4,fine,y\n');
    const report = await scanTable(chunked(csv, 5), 'csv');
    expect(report).toMatchObject({ records: 4, brokenRecords: 3, brokenColumns: ['note', 'city'] });
    expect(refusalMessage('notes.csv', 2, report)).toBe(
      '"notes.csv" (version 2) cannot be registered as a table: 3 rows have a line break inside a cell (columns note, city). ' +
        'Register with correct: true to save a corrected copy (every record on one line, cells on one line, UTF-8) as a new version and register that.',
    );
  });

  it('carriage-return-only line ends and Latin-1 bytes are refused too', async () => {
    const report = await scanTable(Readable.from([Buffer.from('id\tname\r1\tJos\xe9\r2\tb\r', 'latin1')]), 'tsv');
    expect(report).toMatchObject({ records: 2, brokenRecords: 0, crOnlyLines: 3, invalidUtf8Bytes: 1 });
    expect(passesChecks(report)).toBe(false);
    expect(refusalMessage('p.tsv', 1, report)).toContain('3 lines end in a carriage return only; 1 byte is not UTF-8');
  });

  it('NDJSON: records spread over lines are counted; keys become the columns', async () => {
    const text = '{"a":1,"b":"x}"}\n{\n  "a": 2,\n  "c": [1,\n2]\n}\n{"a":3}\n';
    const report = await scanTable(chunked(Buffer.from(text), 4), 'ndjson');
    expect(report).toMatchObject({ records: 3, brokenRecords: 1, columns: ['a', 'b', 'c'] });
    await expect(scanTable(Readable.from([Buffer.from('{"a":1}\n[1]\n')]), 'ndjson')).rejects.toThrow(/line 2 does not start a JSON object/);
    await expect(scanTable(Readable.from([Buffer.from('{"a":1\n')]), 'ndjson')).rejects.toThrow(/never ends/);
  });
});

describe('the correction', () => {
  it('a Latin-1 file with embedded newlines and CR-only line ends becomes clean UTF-8', async () => {
    const latin1 = Buffer.from('id,name,note\r1,Jos\xe9,"first\r\nsecond"\r2,Ren\xe9e,"a\nb\rc"\r3,Zo\xeb,plain\r', 'latin1');
    const text = await corrected(latin1, 'csv');
    expect(text).toBe('id,name,note\n1,José,first second\n2,Renée,a b c\n3,Zoë,plain\n');
    const again = await scanTable(Readable.from([Buffer.from(text)]), 'csv');
    expect(passesChecks(again)).toBe(true);
  });

  it('keeps quoting where cells need it (TSV, quotes, delimiters)', async () => {
    expect(await corrected(Buffer.from('a\tb\n"x\ny"\t"he said ""hi"""\n1\t"c\td"\n'), 'tsv')).toBe('a\tb\nx y\t"he said ""hi"""\n1\t"c\td"\n');
  });

  it('NDJSON: one object a line', async () => {
    expect(await corrected(Buffer.from('{\r  "a": "x\\ny",\r  "b": 1\r}\r{"a":"z"}'), 'ndjson')).toBe('{"a":"x\\ny","b":1}\n{"a":"z"}\n');
  });
});

describe('list cursors', () => {
  it('a cursor names where a page ended; one this module did not issue is refused, not passed to the query', () => {
    expect(decodeListCursor(encodeListCursor({ connection: 'local', table: 'sales_orders' }))).toEqual({ connection: 'local', table: 'sales_orders' });
    for (const forged of ['', 'not base64 json', Buffer.from('["tables", 1, "x"]').toString('base64url'), Buffer.from(JSON.stringify(['tables', 'c', 'x'.repeat(101)])).toString('base64url')]) {
      expect(() => decodeListCursor(forged)).toThrow(TableError);
    }
  });
});
