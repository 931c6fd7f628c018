/**
 * Text files as text: UTF-8 (a byte-order mark dropped) or UTF-16 announced by its BOM, reading
 * no more bytes than `maxChars` characters can take. Pure.
 */
import { isTextContent } from '../../objstore/index.js';

/** The most bytes one UTF-16 code unit of the result can come from (a 4-byte UTF-8 sequence gives two units). */
const maxBytesPerChar = 3;

export type Decoded = { text: string } | { reason: string };

export function decodeText(bytes: Uint8Array, contentType: string | undefined, maxChars: number): Decoded {
  const limit = maxChars * maxBytesPerChar + 4;
  const prefix = bytes.subarray(0, limit);
  const cut = bytes.length > limit;
  const utf16 = utf16Encoding(prefix);
  if (utf16) {
    // An odd cut would end on half a code unit; TextDecoder turns it into U+FFFD, so drop it.
    const even = prefix.subarray(0, prefix.length - (prefix.length % 2));
    return { text: boundText(new TextDecoder(utf16).decode(even), maxChars) };
  }
  if (!isTextContent(contentType, prefix, cut)) return { reason: 'the bytes are not UTF-8 text' };
  // TextDecoder drops a leading UTF-8 BOM; `stream: true` keeps a cut-off last character out.
  return { text: boundText(new TextDecoder('utf-8').decode(prefix, { stream: cut }), maxChars) };
}

/** The first `maxChars` UTF-16 units of `text`, never ending on half a surrogate pair. */
export function boundText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const end = /[\ud800-\udbff]/.test(text[maxChars - 1] ?? '') ? maxChars - 1 : maxChars;
  return text.slice(0, end);
}

function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}
