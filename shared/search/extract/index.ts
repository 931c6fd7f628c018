/**
 * Text extraction for the search index and the `fetch` tool: a file's bytes to a bounded prefix
 * of its words. Text types are decoded, PDFs read through pdf-parse, docx through mammoth,
 * xlsx/pptx/OpenDocument from their XML parts. A malformed or hostile file never throws: the
 * answer is a reason instead of text. The one throw is PdfReaderBusy — a PDF not read because too
 * many wait (shared/pdf): nothing is wrong with the file, so the caller retries later or says so.
 */
import { extractKind, isOfficeFormat } from './kind.js';
import { contentXmlParts, officeText } from './office.js';
import { PdfReaderBusy } from '../../pdf/index.js';
import { pdfText } from './pdf.js';
import { boundText, decodeText } from './text.js';
import { ZipRefusal } from './zip.js';

export { extractKind, isOfficeFormat, mediaType, type ExtractKind, type OfficeFormat } from './kind.js';
export { boundText } from './text.js';

/** The most bytes the XML parts of one office document may inflate to (zip bombs are refused above it). */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export type Extraction = { text: string } | { text: undefined; reason: string };

/**
 * The first `maxChars` characters of readable text of a file, or why there are none. `caller` is
 * whose turn a PDF waits in (a library, a user: shared/pdf serves callers in turn).
 */
export async function extractContents(bytes: Uint8Array, contentType: string, filename: string, maxChars: number, caller: string): Promise<Extraction> {
  const kind = extractKind(contentType, filename);
  try {
    if (kind === 'pdf') return { text: await pdfText(bytes, maxChars, caller) };
    if (isOfficeFormat(kind)) return { text: await officeText(bytes, kind, maxChars, MAX_INFLATED_BYTES) };
    const decoded = decodeText(bytes, kind === 'text' ? contentType : undefined, maxChars);
    return 'text' in decoded ? decoded : { text: undefined, reason: kind === 'text' ? decoded.reason : `no text is read from ${contentType}` };
  } catch (error) {
    if (error instanceof PdfReaderBusy) throw error;
    return { text: undefined, reason: `unreadable ${kind === 'other' ? contentType : kind}: ${(error as Error).message}` };
  }
}

export async function extractText(bytes: Uint8Array, contentType: string, filename: string, maxChars: number, caller: string): Promise<string | undefined> {
  return (await extractContents(bytes, contentType, filename, maxChars, caller)).text;
}

export interface OfficePart {
  name: string;
  /** The part's XML, cut at the bound. */
  text: string;
}

export type OfficeParts = { parts: OfficePart[]; truncated: boolean } | { parts: undefined; reason: string };

/**
 * The XML parts that carry an office document's contents (document, sheets and shared strings,
 * slides and notes, OpenDocument content), together at most `maxChars` characters.
 */
export async function officeParts(bytes: Uint8Array, contentType: string, filename: string, maxChars: number): Promise<OfficeParts> {
  const kind = extractKind(contentType, filename);
  if (!isOfficeFormat(kind)) return { parts: undefined, reason: `${contentType} is not an office document` };
  try {
    const parts: OfficePart[] = [];
    let left = maxChars;
    let truncated = false;
    for (const part of await contentXmlParts(bytes, kind, MAX_INFLATED_BYTES)) {
      const xml = part.bytes.toString('utf8');
      if (left <= 0 || xml.length > left) truncated = true;
      if (left <= 0) break;
      parts.push({ name: part.name, text: boundText(xml, left) });
      left -= xml.length;
    }
    return { parts, truncated };
  } catch (error) {
    const why = error instanceof ZipRefusal ? error.message : `not a readable ${kind} (${(error as Error).message})`;
    return { parts: undefined, reason: why };
  }
}
