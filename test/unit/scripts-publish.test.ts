import { describe, expect, it } from 'vitest';
import { columnsOf, inertCell, publishedFile } from '../../shared/scripts/runs/index.js';
import { upstreamAccepted } from '../../shared/resources/index.js';

/** docs/scripts.md, "platform.publish_data": the file written from a script's rows (pure rules). */
describe('publish_data file rules', () => {
  it('takes every key of the rows as a column, in first-seen order', () => {
    expect(columnsOf([{ b: 1 }, { a: 2, b: 3 }, { c: null }])).toEqual(['b', 'a', 'c']);
    expect(columnsOf([])).toEqual([]);
  });

  it('writes NDJSON with every column on every line, a missing value as null, nested values kept as JSON', () => {
    const file = publishedFile([{ a: 1, nested: { x: [1, 2] } }, { b: 'two' }], 'ndjson');
    expect(file).toMatchObject({ extension: 'ndjson', contentType: 'application/x-ndjson', columns: ['a', 'nested', 'b'] });
    expect([...file.lines()].join('')).toBe('{"a":1,"nested":{"x":[1,2]},"b":null}\n{"a":null,"nested":null,"b":"two"}\n');
  });

  it('writes CSV with a header, quoting per RFC 4180, a nested value as its JSON text and null as an empty cell', () => {
    const file = publishedFile([{ text: 'a,b "c"\nd', n: 1.5, obj: { k: 'v' } }, { n: null }], 'csv');
    expect([...file.lines()].join('')).toBe('text,n,obj\n"a,b ""c""\nd",1.5,"{""k"":""v""}"\n,,\n');
  });

  it('makes text cells a spreadsheet would evaluate inert, leaving numbers alone', () => {
    for (const formula of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(inertCell(formula)).toBe(`'${formula}`);
    expect(inertCell(-2)).toBe(-2);
    expect(inertCell('plain')).toBe('plain');
    expect([...publishedFile([{ '=h': '=1' }], 'csv').lines()].join('')).toBe("'=h\n'=1\n");
  });
});

describe('export upstream rule', () => {
  it('stores only a 2xx answer', () => {
    expect([199, 200, 204, 299, 300, 404, 500].map(upstreamAccepted)).toEqual([false, true, true, true, false, false, false]);
  });
});
