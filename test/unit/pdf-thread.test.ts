/**
 * PDFs are read in a thread of their own (shared/pdf): pdf.js's legacy build replaces built-ins of
 * the realm that loads it (Array.prototype.push 8× slower, JSON.parse, Function.prototype.toString)
 * and adds globals, so extracting a PDF's text or drawing its first page must leave this realm as
 * it was; a PDF that is not read within the deadline fails, and its thread is replaced.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PdfReader } from '../../shared/pdf/index.js';
import { pdf } from '../fixtures/search/documents.js';
import { simplePdf } from '../support/pdf.js';

const readers: PdfReader[] = [];
afterAll(async () => {
  await Promise.all(readers.map((reader) => reader.close()));
});

/** The built-ins pdf.js's polyfills replace, and the globals they add. */
function realm() {
  return {
    push: Array.prototype.push,
    parse: JSON.parse,
    toString: Function.prototype.toString,
    added: ['pdfjsLib', '__core-js_shared__', 'DOMMatrix', 'Path2D'].filter((name) => name in globalThis),
  };
}

describe('the PDF thread', () => {
  it('extracts text and draws a first page without touching this realm\'s built-ins', async () => {
    const before = realm();
    // Loaded only now, as the api and the worker load them.
    const { extractText } = await import('../../shared/search/extract/index.js');
    const { drawTile } = await import('../../shared/resources/thumbnails/draw.js');
    expect(await extractText(pdf(['Quarterly revenue grew']), 'application/pdf', 'r.pdf', 1000, 'test')).toContain('Quarterly revenue grew');
    const [tile] = await drawTile('pdf', simplePdf(2), 'test');
    expect(tile!.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(realm()).toEqual(before);
    expect(realm().added).toEqual([]);
  });

  it("leaves the caller's bytes whole (pdf.js detaches what it is given)", async () => {
    const reader = new PdfReader();
    readers.push(reader);
    const bytes = pdf(['kept']);
    const copy = Buffer.from(bytes);
    expect(await reader.text(bytes, 100, 'test')).toContain('kept');
    expect(Buffer.from(bytes).equals(copy)).toBe(true);
  });

  it('fails a PDF not read within the deadline, stops its thread and reads the next on a new one', async () => {
    const reader = new PdfReader({ deadlineMs: 1 });
    readers.push(reader);
    const first = reader.text(pdf(['slow']), 100, 'test');
    const second = reader.text(pdf(['next']), 100, 'test');
    await expect(first).rejects.toThrow('the PDF was not read within 0.001 s');
    // Queued behind it, the next job got a thread of its own (and the same deadline).
    await expect(second).rejects.toThrow('the PDF was not read within 0.001 s');
  });

  it('answers an unreadable PDF with its error, and keeps serving', async () => {
    const reader = new PdfReader();
    readers.push(reader);
    await expect(reader.text(Buffer.from('%PDF-1.4 not really'), 100, 'test')).rejects.toThrow();
    expect(await reader.text(pdf(['after']), 100, 'test')).toContain('after');
  });
});
