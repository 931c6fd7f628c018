/**
 * Index rules (spec document 2, "Index rules", the search setting, and the 8 MB limit):
 * indexModeFor, one case per rule row, and resources.index parsed from platform.yaml.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { indexModeFor, isTableOfValues, MAX_CONTENT_INDEX_BYTES, type IndexRule, type IndexSubject, type IndexVersion } from '../../shared/search/index.js';
import { COMMON_TERM_SHARE, contentsQuery, rulesFingerprint, shortlistSize, tableColumns } from '../../shared/search/index.js';

function subject(over: Partial<IndexSubject> = {}): IndexSubject {
  return { search_setting: 'default', library: { kind: 'global', key: '' }, path: 'references', file_name: 'guide.pdf', content_type: 'application/pdf', ...over };
}
const small: IndexVersion = { size: 10_000, origin: 'portal' };

describe('indexModeFor: defaults with no rules', () => {
  it('a table of values (CSV, TSV, NDJSON) is indexed on its details', () => {
    expect(indexModeFor(subject({ file_name: 'sales.csv', content_type: 'text/csv' }), small, [])).toBe('details');
    expect(indexModeFor(subject({ file_name: 'sales.tsv', content_type: 'text/tab-separated-values; charset=utf-8' }), small, [])).toBe('details');
    expect(indexModeFor(subject({ file_name: 'events.ndjson', content_type: 'application/x-ndjson' }), small, [])).toBe('details');
    // By extension when the type is generic.
    expect(indexModeFor(subject({ file_name: 'events.jsonl', content_type: 'application/octet-stream' }), small, [])).toBe('details');
  });

  it('everything else is indexed on its contents', () => {
    expect(indexModeFor(subject(), small, [])).toBe('contents');
    expect(indexModeFor(subject({ file_name: 'notes.md', content_type: 'text/markdown' }), small, [])).toBe('contents');
    expect(indexModeFor(subject({ file_name: 'data.json', content_type: 'application/json' }), small, [])).toBe('contents');
  });

  it('a file over 8 MB is indexed on metadata alone; exactly 8 MB is not over', () => {
    expect(indexModeFor(subject(), { size: MAX_CONTENT_INDEX_BYTES + 1, origin: 'portal' }, [])).toBe('metadata');
    expect(indexModeFor(subject({ file_name: 'big.csv', content_type: 'text/csv' }), { size: MAX_CONTENT_INDEX_BYTES + 1, origin: 'portal' }, [])).toBe('metadata');
    expect(indexModeFor(subject(), { size: MAX_CONTENT_INDEX_BYTES, origin: 'portal' }, [])).toBe('contents');
  });
});

describe('indexModeFor: the search setting of the file', () => {
  it('Not indexed, Details only and Contents win over the defaults and every rule', () => {
    const rules: IndexRule[] = [{ index: 'contents' }];
    expect(indexModeFor(subject({ search_setting: 'not_indexed' }), small, rules)).toBe('not_indexed');
    expect(indexModeFor(subject({ search_setting: 'details_only' }), small, rules)).toBe('details');
    expect(indexModeFor(subject({ search_setting: 'contents', file_name: 'a.csv', content_type: 'text/csv' }), small, [{ index: 'not_indexed' }])).toBe('contents');
  });

  it('Contents over 8 MB is still metadata only; Not indexed stays not indexed at any size', () => {
    const big = { size: MAX_CONTENT_INDEX_BYTES + 1, origin: 'portal' as const };
    expect(indexModeFor(subject({ search_setting: 'contents' }), big, [])).toBe('metadata');
    expect(indexModeFor(subject({ search_setting: 'not_indexed' }), big, [])).toBe('not_indexed');
  });
});

describe('indexModeFor: resources.index rules (first match wins)', () => {
  it('by folder: a glob over the folder path', () => {
    const rules: IndexRule[] = [{ folder: 'archive/**', index: 'not_indexed' }];
    expect(indexModeFor(subject({ path: 'archive' }), small, rules)).toBe('not_indexed');
    expect(indexModeFor(subject({ path: 'archive/2023/q1' }), small, rules)).toBe('not_indexed');
    expect(indexModeFor(subject({ path: 'archived' }), small, rules)).toBe('contents');
    expect(indexModeFor(subject({ path: '' }), small, [{ folder: '', index: 'details_only' }])).toBe('details');
  });

  it('by file type: extensions, families and whole media types', () => {
    expect(indexModeFor(subject({ file_name: 'logo.svg', content_type: 'image/svg+xml' }), small, [{ types: ['image/*'], index: 'details_only' }])).toBe('details');
    expect(indexModeFor(subject(), small, [{ types: ['.PDF'], index: 'details_only' }])).toBe('details');
    expect(indexModeFor(subject(), small, [{ types: ['application/pdf'], index: 'not_indexed' }])).toBe('not_indexed');
    expect(indexModeFor(subject(), small, [{ types: ['text/*'], index: 'not_indexed' }])).toBe('contents');
  });

  it('by size: min_bytes and max_bytes, inclusive', () => {
    const rules: IndexRule[] = [{ min_bytes: 1_000_000, max_bytes: 2_000_000, index: 'details_only' }];
    expect(indexModeFor(subject(), { size: 1_000_000, origin: 'portal' }, rules)).toBe('details');
    expect(indexModeFor(subject(), { size: 2_000_000, origin: 'portal' }, rules)).toBe('details');
    expect(indexModeFor(subject(), { size: 999_999, origin: 'portal' }, rules)).toBe('contents');
  });

  it('by library: a kind, or one persona', () => {
    const persona = (name: string) => subject({ library: { kind: 'persona', key: name } });
    expect(indexModeFor(persona('finance'), small, [{ library: ['persona:finance'], index: 'not_indexed' }])).toBe('not_indexed');
    expect(indexModeFor(persona('sales'), small, [{ library: ['persona:finance'], index: 'not_indexed' }])).toBe('contents');
    expect(indexModeFor(subject({ library: { kind: 'person', key: 'alice' } }), small, [{ library: ['person'], index: 'details_only' }])).toBe('details');
  });

  it('by origin of the write; an unknown origin matches no origin rule', () => {
    const rules: IndexRule[] = [{ origin: ['script', 'webhook'], index: 'details_only' }];
    expect(indexModeFor(subject(), { size: 10, origin: 'script' }, rules)).toBe('details');
    expect(indexModeFor(subject(), { size: 10, origin: 'agent' }, rules)).toBe('contents');
    expect(indexModeFor(subject(), { size: 10, origin: undefined }, rules)).toBe('contents');
  });

  it('every condition of a rule must hold, and the first matching rule decides', () => {
    const rules: IndexRule[] = [
      { folder: 'data/**', types: ['.csv'], index: 'not_indexed' },
      { folder: 'data/**', index: 'contents' },
      { index: 'details_only' },
    ];
    expect(indexModeFor(subject({ path: 'data/raw', file_name: 'a.csv', content_type: 'text/csv' }), small, rules)).toBe('not_indexed');
    expect(indexModeFor(subject({ path: 'data/raw', file_name: 'a.txt', content_type: 'text/plain' }), small, rules)).toBe('contents');
    expect(indexModeFor(subject({ path: 'other' }), small, rules)).toBe('details');
  });
});

describe('resources.index in platform.yaml', () => {
  it('parses rule fields; a bad library is refused naming the key', () => {
    const yaml = `resources:
  index:
    - folder: "archive/**"
      index: not_indexed
    - types: [".csv", "text/*"]
      library: [global, "persona:finance"]
      origin: [script, export]
      min_bytes: 1
      max_bytes: 100
      index: details_only
`;
    const { config } = parseConfig(yaml, {});
    expect(config.resources.index).toHaveLength(2);
    expect(config.resources.index[1]).toMatchObject({ types: ['.csv', 'text/*'], library: ['global', 'persona:finance'], origin: ['script', 'export'], index: 'details_only' });
    expect(() => parseConfig('resources:\n  index:\n    - library: [team]\n      index: contents\n', {})).toThrow(/resources\.index/);
  });
});

describe('details of a table of values', () => {
  it('CSV and TSV header columns, NDJSON first record keys', () => {
    expect(isTableOfValues('text/csv', 'x')).toBe(true);
    expect(tableColumns(Buffer.from('\uFEFFregion,"net revenue",units\n1,2,3\n'), 'text/csv', 'a.csv')).toEqual(['region', 'net revenue', 'units']);
    expect(tableColumns(Buffer.from('a\tb\r\n1\t2'), 'text/tab-separated-values', 'a.tsv')).toEqual(['a', 'b']);
    expect(tableColumns(Buffer.from('{"customer_id":1,"plan":"pro"}\n{"x":1}'), 'application/x-ndjson', 'e.ndjson')).toEqual(['customer_id', 'plan']);
    expect(tableColumns(Buffer.from('{"cut'), 'application/x-ndjson', 'e.ndjson')).toEqual([]);
  });
});

describe('contentsQuery: words in most files are not ranked on contents', () => {
  it('leaves common words out of the contents query when the query has others, and lists the words one by one', () => {
    expect(contentsQuery([{ lexeme: 'report', share: 0.9 }, { lexeme: 'okapi', share: null }, { lexeme: "o'hara", share: 0.01 }])).toEqual({
      query: "'okapi' | 'o''hara'",
      terms: ["'okapi'", "'o''hara'"],
    });
  });
  it('keeps every word when all are common, and has nothing for no words', () => {
    expect(contentsQuery([{ lexeme: 'report', share: COMMON_TERM_SHARE + 0.01 }])).toEqual({ query: "'report'", terms: ["'report'"] });
    expect(contentsQuery([{ lexeme: 'report', share: COMMON_TERM_SHARE }, { lexeme: 'okapi', share: 0.5 }])).toEqual({ query: "'report'", terms: ["'report'"] });
    expect(contentsQuery([])).toEqual({ query: '', terms: [] });
  });
});

describe('shortlistSize: files scored in full per way of matching', () => {
  it('is several pages beyond the one asked for, at least 200', () => {
    expect(shortlistSize(10, 0)).toBe(200);
    expect(shortlistSize(50, 100)).toBe(604);
  });
});

describe('rulesFingerprint: which rules an index row was decided under', () => {
  it('is the same for the same rules and differs for added, changed or reordered ones', () => {
    const notIndexed = { folder: 'hr/**', index: 'not_indexed' } as const;
    const details = { origin: ['script'], index: 'details_only' } as const;
    const base = rulesFingerprint([notIndexed, details] as never);
    expect(rulesFingerprint([{ ...notIndexed }, { ...details }] as never)).toBe(base);
    expect(rulesFingerprint([details, notIndexed] as never)).not.toBe(base);
    expect(rulesFingerprint([notIndexed] as never)).not.toBe(base);
    expect(rulesFingerprint([{ ...notIndexed, folder: 'hr/*' }, details] as never)).not.toBe(base);
    expect(rulesFingerprint([])).toMatch(/^[0-9a-f]{16}$/);
  });
});
