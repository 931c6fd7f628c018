/**
 * Search indexing, contents: "text types as text, PDF via pdf-parse, office documents (docx via
 * mammoth; xlsx/pptx/odt text from their XML parts), a bounded prefix of each" — and a malformed
 * or hostile file (a zip bomb) answers a reason, never an exception or unbounded memory.
 */
import { describe, expect, it } from 'vitest';
import { extractContents, extractText, MAX_INFLATED_BYTES, officeParts } from '../../shared/search/extract/index.js';
import { readZipParts } from '../../shared/search/extract/zip.js';
import { xmlText } from '../../shared/search/extract/xml-text.js';
import { docx, docxType, odt, odtType, onePixelPng, pdf, pptx, pptxType, xlsx, xlsxType, zipOf } from '../fixtures/search/documents.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('text types as text', () => {
  it('decodes UTF-8, dropping a byte-order mark', async () => {
    expect(await extractText(utf8('\ufeffquarterly revenue'), 'text/plain', 'a.txt', 100, 'test')).toBe('quarterly revenue');
    expect(await extractText(utf8('{"a":"é"}'), 'application/json', 'a.json', 100, 'test')).toBe('{"a":"é"}');
  });

  it('decodes UTF-16 announced by its byte-order mark', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve text', 'utf16le')]);
    expect(await extractText(le, 'text/plain', 'a.txt', 100, 'test')).toBe('naïve text');
  });

  it('keeps a bounded prefix, never half a character', async () => {
    expect(await extractText(utf8('abcdefghij'), 'text/plain', 'a.txt', 4, 'test')).toBe('abcd');
    expect(await extractText(utf8('ab😀cd'), 'text/plain', 'a.txt', 3, 'test')).toBe('ab');
    const big = utf8('x'.repeat(1_000_000));
    expect(await extractText(big, 'text/csv', 'a.csv', 10, 'test')).toBe('x'.repeat(10));
  });

  it('takes the type from the file name when the declared one is octet-stream', async () => {
    expect(await extractText(utf8('# Title'), 'application/octet-stream', 'notes.md', 100, 'test')).toBe('# Title');
  });

  it('answers a reason for bytes that are not text', async () => {
    expect(await extractContents(Buffer.from([0x00, 0x9f, 0xff, 0x00]), 'text/plain', 'a.txt', 100, 'test')).toEqual({ text: undefined, reason: 'the bytes are not UTF-8 text' });
    expect(await extractContents(onePixelPng, 'image/png', 'a.png', 100, 'test')).toMatchObject({ text: undefined, reason: 'no text is read from image/png' });
  });
});

describe('PDF via pdf-parse', () => {
  it('reads the text of each line', async () => {
    const text = await extractText(pdf(['Quarterly revenue grew', 'Costs (fixed) fell']), 'application/pdf', 'r.pdf', 1000, 'test');
    expect(text).toContain('Quarterly revenue grew');
    expect(text).toContain('Costs (fixed) fell');
    expect(text).not.toMatch(/-- 1 of 1 --/);
  });

  it('answers a reason for a malformed PDF', async () => {
    const result = await extractContents(utf8('%PDF-1.4 not really'), 'application/pdf', 'r.pdf', 1000, 'test');
    expect(result.text).toBeUndefined();
    expect('reason' in result && result.reason).toMatch(/^unreadable pdf: /);
  });
});

describe('office documents', () => {
  it('docx via mammoth', async () => {
    expect(await extractText(await docx(['Travel policy', 'Economy class & trains']), docxType, 'p.docx', 1000, 'test')).toBe('Travel policy\n\nEconomy class & trains');
  });

  it('xlsx from its sheets, shared strings resolved', async () => {
    const text = await extractText(await xlsx([['region', 'revenue'], ['north', 1200], ['south', 900]]), xlsxType, 'r.xlsx', 1000, 'test');
    expect(text).toBe('region\trevenue\nnorth\t1200\nsouth\t900');
  });

  it('pptx from its slides in order (slide 2 before slide 10)', async () => {
    const slides = Array.from({ length: 10 }, (_, i) => `slide number ${i + 1}`);
    const text = await extractText(await pptx(slides), pptxType, 'd.pptx', 10_000, 'test');
    expect(text!.split('\n\n')).toEqual(slides);
  });

  it('odt from content.xml', async () => {
    expect(await extractText(await odt(['Meeting notes', 'Budget <draft>']), odtType, 'n.odt', 1000, 'test')).toBe('Meeting notes\nBudget <draft>');
  });

  it('keeps a bounded prefix', async () => {
    expect(await extractText(await docx(['a'.repeat(500)]), docxType, 'p.docx', 20, 'test')).toBe('a'.repeat(20));
    expect(await extractText(await odt(['b'.repeat(500)]), odtType, 'n.odt', 20, 'test')).toBe('b'.repeat(20));
  });

  it('answers a reason for a file that is not a zip', async () => {
    for (const type of [docxType, xlsxType, odtType]) {
      const result = await extractContents(utf8('PK not a zip'), type, 'f', 1000, 'test');
      expect(result.text).toBeUndefined();
    }
  });
});

describe('zip bombs are refused', () => {
  it('a document whose parts inflate past the cap is refused from its directory', async () => {
    const bomb = await zipOf({ 'word/document.xml': Buffer.alloc(MAX_INFLATED_BYTES + 1) });
    expect(bomb.length).toBeLessThan(200_000);
    const result = await extractContents(bomb, docxType, 'bomb.docx', 1000, 'test');
    expect(result).toEqual({ text: undefined, reason: expect.stringMatching(/inflate to \d+ bytes; at most \d+ are read/) });
    expect(await officeParts(bomb, docxType, 'bomb.docx', 1000)).toEqual({ parts: undefined, reason: expect.stringMatching(/inflate to/) });
  });

  it('a part that inflates past the size its directory declares is stopped', async () => {
    const honest = await zipOf({ 'content.xml': Buffer.alloc(100_000, 0x61) });
    // Rewrite the central directory's uncompressed size (offset 24 of its entry) to claim 10 bytes.
    const lying = Buffer.from(honest);
    lying.writeUInt32LE(10, lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    await expect(readZipParts(lying, () => true, 1000)).rejects.toThrow();
    expect((await extractContents(lying, odtType, 'n.odt', 1000, 'test')).text).toBeUndefined();
  });
});

describe('officeParts (fetch of an office document)', () => {
  it('answers the XML parts that carry the contents, naturally ordered', async () => {
    const result = await officeParts(await xlsx([['a', 1]]), xlsxType, 'r.xlsx', 100_000);
    expect(result.parts?.map((p) => p.name)).toEqual(['xl/sharedStrings.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    expect(result.parts?.[2]!.text).toContain('<sheetData>');
    expect(result).toMatchObject({ truncated: false });
  });

  it('bounds the parts together', async () => {
    const result = await officeParts(await docx(['x'.repeat(1000)]), docxType, 'p.docx', 100);
    expect(result).toMatchObject({ truncated: true });
    expect(result.parts!.reduce((n, p) => n + p.text.length, 0)).toBe(100);
  });

  it('answers a reason for what is not an office document', async () => {
    expect(await officeParts(pdf(['x']), 'application/pdf', 'a.pdf', 100)).toEqual({ parts: undefined, reason: 'application/pdf is not an office document' });
  });
});

describe('xmlText', () => {
  it('joins runs within a paragraph, breaks lines and cells, skips formulas, decodes entities', () => {
    expect(xmlText('<w:p><w:r><w:t>Hel</w:t></w:r><w:r><w:t>lo</w:t></w:r></w:p><w:p><w:r><w:t>a&amp;b &#233;</w:t></w:r></w:p>', 100)).toBe('Hello\na&b é');
    expect(xmlText('<row><c><f>SUM(A1)</f><v>3</v></c><c><v>4</v></c></row>', 100)).toBe('3\t4');
  });
});
