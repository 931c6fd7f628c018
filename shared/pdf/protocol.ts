/** Messages between the PDF thread (thread.ts) and its client (reader.ts). */

export type PdfJob =
  /** The text of the pages, in batches, until `maxChars` characters are read. */
  | { id: number; kind: 'text'; bytes: Uint8Array; maxChars: number }
  /** The first page as a PNG, white behind it, at most `limit` pixels on its longer side. */
  | { id: number; kind: 'first_page'; bytes: Uint8Array; limit: number };

export type PdfAnswer =
  | { id: number; ok: true; text: string }
  | { id: number; ok: true; png: Uint8Array }
  | { id: number; ok: false; error: string };
