/**
 * Thumbnail drawing rules and the state table (spec document 2, "Thumbnail drawing rules",
 * "Thumbnail"), pure: families by media type (whole, parameters removed, +json/+xml suffix) and by
 * name, bounds, icon families, CSV/TSV cut at a record boundary, the page SVG's escaping, and the
 * answer's state from the row and the head version.
 */
import { describe, expect, it } from 'vitest';
import { boundBytes, thumbnailFamily, thumbnailPlan, thumbnailState } from '../../shared/resources/index.js';
import { firstRecords, pageSvg, pageText } from '../../shared/resources/thumbnails/page.js';
import type { ThumbnailRow } from '../../shared/resources/thumbnails/state.js';

const MB = 1024 * 1024;

describe('thumbnail drawing rules', () => {
  it('drawn as documents: markdown, CSV, TSV, JSON, NDJSON, any other text/, HTML, JSX, YAML, XML, SQL, Python, JavaScript, CSS', () => {
    const cases: [string, string, string][] = [
      ['text/markdown', 'a.md', 'markdown'],
      ['text/csv; charset=utf-8', 'a.csv', 'csv'],
      ['text/tab-separated-values', 'a.tsv', 'tsv'],
      ['application/json', 'a.json', 'json'],
      ['application/x-ndjson', 'a.ndjson', 'ndjson'],
      ['text/plain', 'notes.txt', 'text'],
      ['text/x-rst', 'a.rst', 'text'],
      ['text/html', 'a.html', 'html'],
      ['text/jsx', 'a.jsx', 'jsx'],
      ['application/yaml', 'a.yaml', 'yaml'],
      ['application/xml', 'a.xml', 'xml'],
      ['application/sql', 'a.sql', 'sql'],
      ['text/x-python', 'a.py', 'python'],
      ['text/javascript', 'a.js', 'javascript'],
      ['text/css', 'a.css', 'css'],
      // Suffixes, case and parameters.
      ['application/ld+json', 'a.jsonld', 'json'],
      ['application/atom+xml', 'feed', 'xml'],
      ['Application/JSON; charset=UTF-8', 'a', 'json'],
      // A generic type says less than the name.
      ['application/octet-stream', 'script.py', 'python'],
      ['text/plain', 'query.sql', 'sql'],
      ['application/octet-stream', 'data.csv', 'csv'],
    ];
    for (const [type, name, family] of cases) expect([type, name, thumbnailFamily(type, name)]).toEqual([type, name, family]);
  });

  it('raster images (PNG, JPEG, GIF, WebP, AVIF, BMP, ICO), SVG and PDF are one image; TIFF, HEIC, PSD never', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon']) {
      expect(thumbnailFamily(type, 'x')).toBe('raster');
    }
    expect(thumbnailFamily('image/svg+xml', 'a.svg')).toBe('svg');
    expect(thumbnailFamily('application/pdf', 'a.pdf')).toBe('pdf');
    for (const type of ['image/tiff', 'image/heic', 'image/heif', 'image/vnd.adobe.photoshop']) expect(thumbnailFamily(type, 'x')).toBeUndefined();
    expect(thumbnailPlan({ contentType: 'image/png', fileName: 'a.png', size: 10 })).toMatchObject({ drawn: true, variants: ['image'] });
    expect(thumbnailPlan({ contentType: 'text/markdown', fileName: 'a.md', size: 10 })).toMatchObject({ drawn: true, variants: ['light', 'dark'] });
  });

  it('office files, archives, audio and video keep a content-type icon', () => {
    const icons = [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'application/vnd.oasis.opendocument.text',
      'application/zip',
      'application/gzip',
      'audio/mpeg',
      'video/mp4',
      'application/octet-stream',
    ];
    for (const type of icons) expect(thumbnailPlan({ contentType: type, fileName: 'file.bin', size: 10 })).toEqual({ drawn: false, reason: 'family' });
  });

  it('bounds: 32 MB for PDF, CSV and TSV; 1 MB for the others; anything over keeps an icon', () => {
    expect(boundBytes('pdf')).toBe(32 * MB);
    expect(boundBytes('csv')).toBe(32 * MB);
    expect(boundBytes('tsv')).toBe(32 * MB);
    for (const f of ['json', 'markdown', 'raster', 'svg', 'text'] as const) expect(boundBytes(f)).toBe(MB);
    expect(thumbnailPlan({ contentType: 'text/csv', fileName: 'a.csv', size: 32 * MB }).drawn).toBe(true);
    expect(thumbnailPlan({ contentType: 'text/csv', fileName: 'a.csv', size: 32 * MB + 1 })).toEqual({ drawn: false, reason: 'too_large', boundBytes: 32 * MB });
    expect(thumbnailPlan({ contentType: 'image/png', fileName: 'a.png', size: MB }).drawn).toBe(true);
    expect(thumbnailPlan({ contentType: 'image/png', fileName: 'a.png', size: MB + 1 })).toEqual({ drawn: false, reason: 'too_large', boundBytes: MB });
  });

  it('CSV and TSV: header plus ten records, cut at a record boundary (a quoted newline stays in its field)', () => {
    const rows = Array.from({ length: 30 }, (_, i) => `r${i},"multi\nline ${i}","say ""hi"""`);
    const { records, more } = firstRecords(`h1,h2,h3\n${rows.join('\r\n')}\n`, ',', 11);
    expect(records).toHaveLength(11);
    expect(records[0]).toEqual(['h1', 'h2', 'h3']);
    expect(records[1]).toEqual(['r0', 'multi\nline 0', 'say "hi"']);
    expect(records[10]![0]).toBe('r9');
    expect(more).toBe(true);
    // A last record without its newline is whole only when the text ends there.
    expect(firstRecords('a\tb\n1\t2', '\t', 11).records).toEqual([['a', 'b'], ['1', '2']]);
    expect(pageText('csv', `h\n${Array.from({ length: 40 }, (_, i) => `v${i}`).join('\n')}`).lines).toHaveLength(11);
  });

  it('the page SVG holds escaped text only: no markup, script or external reference of the file survives', () => {
    const page = pageText('html', '<script>alert(1)</script>\n<img src="http://evil.example/x.png">\n&amp; "quotes"');
    const svg = pageSvg(page, 'dark');
    expect(svg).not.toMatch(/<script|<img|href=|xlink|url\(/);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('&amp;amp; &quot;quotes&quot;');
    expect(svg).toContain('#0d1117');
    expect(pageSvg(page, 'light')).toContain('#ffffff');
  });
});

describe('thumbnail state table', () => {
  const png = { contentType: 'image/png', fileName: 'a.png', size: 100, headVersion: 2 };
  const row = (over: Partial<ThumbnailRow>): ThumbnailRow => ({
    resource_id: 'r',
    state: 'drawn',
    version: 2,
    recaptures: 0,
    failed_reason: null,
    failed_variant: null,
    tile_version: 2,
    tile_source_at: new Date('2030-01-01T00:00:00Z'),
    tile_drawn_at: new Date('2030-01-01T00:00:01Z'),
    tile_format: 'png',
    tile_variants: ['image'],
    tile_objects: ['r/thumbnails/v2-image.png'],
    updated_at: new Date('2030-01-01T00:00:01Z'),
    ...over,
  });
  const noTile = { tile_version: null, tile_source_at: null, tile_drawn_at: null, tile_format: null, tile_variants: [], tile_objects: [] };

  it('icon (family or bound) needs no row; none before any draw; drawing; drawn with the moment of its file', () => {
    expect(thumbnailState({ ...png, contentType: 'application/zip', fileName: 'a.zip' }, undefined)).toEqual({ state: 'icon', variants: [], icon_reason: 'family' });
    expect(thumbnailState({ ...png, size: 2 * MB }, undefined).state).toBe('icon');
    expect(thumbnailState(png, undefined)).toEqual({ state: 'none', variants: [] });
    expect(thumbnailState(png, row({ state: 'drawing', ...noTile })).state).toBe('drawing');
    expect(thumbnailState(png, row({}))).toEqual({
      state: 'drawn',
      variants: ['image'],
      drawn_from: { version: 2, at: '2030-01-01T00:00:00.000Z' },
      drawn_at: '2030-01-01T00:00:01.000Z',
    });
  });

  it('failed names reason and variant; drawn then content replaced is stale (the old tile still served); failed then replaced is drawing', () => {
    expect(thumbnailState(png, row({ state: 'failed', failed_reason: 'corrupt', failed_variant: 'image', ...noTile }))).toEqual({
      state: 'failed',
      variants: [],
      failure: { reason: 'corrupt', variant: 'image' },
    });
    const stale = thumbnailState({ ...png, headVersion: 3 }, row({}));
    expect(stale).toMatchObject({ state: 'stale', variants: ['image'], drawn_from: { version: 2 } });
    expect(thumbnailState({ ...png, headVersion: 3 }, row({ state: 'drawing', version: 3 })).state).toBe('stale');
    expect(thumbnailState({ ...png, headVersion: 3 }, row({ state: 'failed', failed_reason: 'x', failed_variant: 'image', ...noTile })).state).toBe('drawing');
  });
});
