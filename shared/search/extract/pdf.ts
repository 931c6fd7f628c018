/**
 * PDF text through pdf-parse (pdf.js), in the PDF thread (shared/pdf: pdf.js must not load in this
 * realm), read in batches of pages until `maxChars` characters are reached, so a long PDF is not
 * laid out beyond the prefix we keep. `caller` is whose turn it waits in (shared/pdf: callers are served in turn).
 */
import { pdfReader } from '../../pdf/index.js';
import { boundText } from './text.js';

export async function pdfText(bytes: Uint8Array, maxChars: number, caller: string): Promise<string> {
  return boundText(await pdfReader.text(bytes, maxChars, caller), maxChars);
}
