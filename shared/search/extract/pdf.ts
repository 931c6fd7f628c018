/**
 * PDF text through pdf-parse (pdf.js), read in batches of pages until `maxChars` characters are
 * reached, so a long PDF is not laid out beyond the prefix we keep.
 */
import { PDFParse } from 'pdf-parse';
import { boundText } from './text.js';

const pagesPerBatch = 20;

export async function pdfText(bytes: Uint8Array, maxChars: number): Promise<string> {
  // pdf.js may transfer (detach) the array it is given: hand it a copy, never the caller's bytes.
  const parser = new PDFParse({ data: new Uint8Array(bytes), verbosity: 0 });
  try {
    const { total } = await parser.getInfo();
    let text = '';
    for (let first = 1; first <= total && text.length < maxChars; first += pagesPerBatch) {
      const batch = await parser.getText({ first, last: Math.min(total, first + pagesPerBatch - 1), pageJoiner: '' });
      text += (text && batch.text ? '\n' : '') + batch.text.trim();
    }
    return boundText(text, maxChars);
  } finally {
    await parser.destroy();
  }
}
