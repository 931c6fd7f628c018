/**
 * Reading named parts out of a zip (an OOXML or OpenDocument file) with bounded memory: a zip
 * whose selected parts would inflate past `maxInflatedBytes` is refused before anything is
 * inflated (from the sizes its directory declares), and yauzl's entry-size validation stops a
 * stream that inflates past its declared size, so a lying directory cannot get around the cap.
 */
import yauzl from 'yauzl';
import type { Readable } from 'node:stream';

export interface ZipPart {
  name: string;
  bytes: Buffer;
}

export class ZipRefusal extends Error {}

/** Entries in a directory that we read at all; a zip with more is refused as hostile. */
const maxEntries = 10_000;

/** The parts of `bytes` whose names `wanted` accepts, in zip order, inflated. Throws on a malformed or oversized zip. */
export async function readZipParts(bytes: Uint8Array, wanted: (name: string) => boolean, maxInflatedBytes: number): Promise<ZipPart[]> {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
    lazyEntries: true,
    validateEntrySizes: true,
  });
  try {
    const entries = await selectedEntries(zip, wanted);
    const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    if (declared > maxInflatedBytes) throw new ZipRefusal(`its parts inflate to ${declared} bytes; at most ${maxInflatedBytes} are read`);
    const parts: ZipPart[] = [];
    for (const entry of entries) {
      if (entry.isEncrypted()) throw new ZipRefusal(`part ${entry.fileName} is encrypted`);
      parts.push({ name: entry.fileName, bytes: await drain(await zip.openReadStreamPromise(entry)) });
    }
    return parts;
  } finally {
    zip.close();
  }
}

function selectedEntries(zip: yauzl.ZipFile, wanted: (name: string) => boolean): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const found: yauzl.Entry[] = [];
    let seen = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      if (++seen > maxEntries) {
        reject(new ZipRefusal(`it has more than ${maxEntries} entries`));
        return;
      }
      if (!entry.fileName.endsWith('/') && wanted(entry.fileName)) found.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** The stream's bytes; yauzl errors the stream if it inflates past its declared size. */
async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
