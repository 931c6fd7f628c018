/**
 * What the portal's preview pane and source editor make of a file (portal/src/resources/preview/
 * content-kind.ts): text (shown and edited in CodeMirror, with its language), a picture (a raster
 * type the content route serves inline), or anything else (SVG included: user markup never renders
 * on the portal's origin); and the inline bound the api states.
 */
import { describe, expect, it } from 'vitest';
import { contentKind, iconFamily, isInlineText, textLanguage } from '../../portal/src/resources/preview/content-kind.js';

const file = (content_type: string, file_name: string, size = 10) => ({ content_type, file_name, size });

describe('textLanguage: the editor language by content type, else by extension', () => {
  it.each([
    ['text/markdown; charset=utf-8', 'notes.md', 'markdown'],
    ['application/json', 'a.json', 'json'],
    ['application/geo+json', 'map.geojson', 'json'],
    ['application/x-ndjson', 'rows.ndjson', 'json'],
    ['application/javascript', 'app.mjs', 'javascript'],
    ['text/jsx', 'view.jsx', 'jsx'],
    ['application/octet-stream', 'types.ts', 'typescript'],
    ['text/plain', 'view.tsx', 'tsx'],
    ['text/x-python', 'job.py', 'python'],
    ['application/sql', 'q.sql', 'sql'],
    ['text/html', 'page.html', 'html'],
    ['text/css', 'site.css', 'css'],
    ['application/yaml', 'c.yaml', 'yaml'],
    ['application/octet-stream', 'c.yml', 'yaml'],
    ['application/xml', 'feed.xml', 'xml'],
    ['application/atom+xml', 'feed.atom', 'xml'],
    ['text/csv', 'rows.csv', 'plain'],
    ['text/plain', 'readme', 'plain'],
    ['application/octet-stream', 'server.log', 'plain'],
  ])('%s %s → %s', (type, name, language) => expect(textLanguage(type, name)).toBe(language));

  it.each([
    ['image/svg+xml', 'logo.svg'],
    ['image/png', 'a.png'],
    ['application/pdf', 'a.pdf'],
    ['application/zip', 'a.zip'],
    ['application/octet-stream', 'blob.bin'],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx'],
  ])('%s %s is not text', (type, name) => expect(textLanguage(type, name)).toBeUndefined());
});

describe('contentKind', () => {
  it('pictures are the raster types the content route answers inline; SVG is not one', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']) expect(contentKind(file(type, 'x'))).toEqual({ kind: 'picture' });
    for (const type of ['image/svg+xml', 'image/tiff', 'image/heic', 'application/pdf', 'application/zip']) expect(contentKind(file(type, 'x'))).toEqual({ kind: 'other' });
    expect(contentKind(file('text/markdown', 'a.md'))).toEqual({ kind: 'text', language: 'markdown' });
  });
});

describe('isInlineText: text within the api’s inline bound', () => {
  const bound = 1024 * 1024;
  it('holds up to the bound, not past it, and never before the bound is known', () => {
    expect(isInlineText(file('text/plain', 'a.txt', bound), bound)).toBe(true);
    expect(isInlineText(file('text/plain', 'a.txt', bound + 1), bound)).toBe(false);
    expect(isInlineText(file('text/plain', 'a.txt', 1), undefined)).toBe(false);
    expect(isInlineText(file('image/png', 'a.png', 1), bound)).toBe(false);
  });
});

describe('iconFamily', () => {
  it.each([
    ['application/zip', 'a.zip', 'archive'],
    ['text/csv', 'a.csv', 'table'],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'a.xlsx', 'table'],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'a.pptx', 'slides'],
    ['audio/mpeg', 'a.mp3', 'audio'],
    ['video/mp4', 'a.mp4', 'video'],
    ['application/pdf', 'a.pdf', 'pdf'],
    ['image/svg+xml', 'a.svg', 'image'],
    ['application/json', 'a.json', 'code'],
    ['text/markdown', 'a.md', 'text'],
    ['application/octet-stream', 'a.bin', 'file'],
  ])('%s %s → %s', (type, name, family) => expect(iconFamily({ content_type: type, file_name: name })).toBe(family));
});
