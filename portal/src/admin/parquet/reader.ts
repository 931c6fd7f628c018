/**
 * A Parquet file read by range requests (hyparquet over the resource download route, which serves
 * one byte range per request): the footer first, then only the row groups a page needs. Every
 * range carries `If-Range` with the ETag seen when the file was opened, so a new version written
 * in between (a recompacted window) is refused rather than mixed with the old one's bytes.
 * Pages compressed with zstd (what compacted webhook windows are written with) are decompressed by
 * fzstd; snappy is hyparquet's own; WebAssembly decoders are not used (the portal's CSP allows none).
 */
import { cachedAsyncBuffer, parquetMetadataAsync, parquetReadObjects, parquetSchema, type AsyncBuffer, type Compressors, type FileMetaData, type SchemaTree } from 'hyparquet';
import { decompress } from 'fzstd';
import { rawRequest } from '../../api/client';

export const compressors: Compressors = {
  ZSTD: (input, outputLength) => decompress(input, new Uint8Array(outputLength)),
};

export class FileChangedError extends Error {
  constructor() {
    super('The file changed since it was opened (a new version was written): reload to read the new one.');
    this.name = 'FileChangedError';
  }
}

export interface OpenParquet {
  file: AsyncBuffer;
  metadata: FileMetaData;
  schema: SchemaTree;
  rows: number;
  etag: string | null;
  /** Range requests made so far (each one is a recorded read). */
  requests(): number;
}

export async function openParquet(id: string): Promise<OpenParquet> {
  // Read to show it, not downloaded: audited as portal_preview, stamps no last read.
  const url = `/api/v1/resources/${encodeURIComponent(id)}/content?purpose=preview`;
  const head = await rawRequest(url, { method: 'HEAD' });
  const byteLength = Number(head.headers.get('content-length'));
  const etag = head.headers.get('etag');
  if (!Number.isFinite(byteLength) || byteLength <= 0) throw new Error('The file is empty.');
  if (head.headers.get('accept-ranges') !== 'bytes') throw new Error('The api does not serve byte ranges of this file.');
  let made = 0;
  const ranged: AsyncBuffer = {
    byteLength,
    async slice(start, end) {
      const last = (end ?? byteLength) - 1;
      made++;
      const response = await rawRequest(url, { headers: { range: `bytes=${start}-${last}`, ...(etag ? { 'if-range': etag } : {}) } });
      if (response.status !== 206) {
        await response.body?.cancel();
        throw new FileChangedError();
      }
      return response.arrayBuffer();
    },
  };
  const file = cachedAsyncBuffer(ranged);
  const metadata = await parquetMetadataAsync(file);
  return { file, metadata, schema: parquetSchema(metadata), rows: Number(metadata.num_rows), etag, requests: () => made };
}

export async function readRows(open: OpenParquet, rowStart: number, rowEnd: number): Promise<Array<Record<string, unknown>>> {
  return parquetReadObjects({ file: open.file, metadata: open.metadata, rowStart, rowEnd, compressors, rowFormat: 'object' });
}

/** A cell as text: bigints and dates as they read, bytes by their length, nested values as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (typeof value === 'object') return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value);
}

/** The leaf columns of the schema with their types, as a table lists them. */
export function schemaColumns(schema: SchemaTree): Array<{ name: string; type: string; repetition: string }> {
  const out: Array<{ name: string; type: string; repetition: string }> = [];
  const walk = (node: SchemaTree) => {
    for (const child of node.children) {
      const e = child.element;
      const logical = e.logical_type ? (typeof e.logical_type === 'object' && 'type' in e.logical_type ? String(e.logical_type.type) : '') : e.converted_type ?? '';
      out.push({
        name: child.path.join('.'),
        type: child.children.length ? `group${logical ? ` (${logical})` : ''}` : `${e.type ?? ''}${logical ? ` (${logical})` : ''}`,
        repetition: e.repetition_type ?? '',
      });
      if (child.children.length) walk(child);
    }
  };
  walk(schema);
  return out;
}
