/**
 * Test archives built with the real writers (yazl for zip, tar-stream for tar and tar.gz). A
 * member's bytes are a Buffer or a generator of chunks (streamed, for large members). Names yazl
 * refuses to write (`../x`) are made by writing a same-length stand-in and patching the name's
 * bytes in the finished zip (the CRC does not cover names).
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';

export interface TestMember {
  name: string;
  data?: Buffer | string;
  /** Streamed bytes (with their total size) instead of `data`. */
  stream?: { size: number; chunks: () => Iterable<Buffer> };
  /** Unix mode with file type bits, e.g. 0o120777 for a symbolic link. */
  mode?: number;
  directory?: boolean;
  /** false: stored, not deflated. */
  compress?: boolean;
}

function bytesOf(member: TestMember): Buffer {
  return typeof member.data === 'string' ? Buffer.from(member.data) : (member.data ?? Buffer.alloc(0));
}

/** A zip written to `path`. `patch` maps stand-in names to the names they become. */
export async function writeZip(path: string, members: readonly TestMember[], patch: Record<string, string> = {}): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const m of members) {
    const options = { ...(m.mode !== undefined ? { mode: m.mode } : {}), ...(m.compress === false ? { compress: false } : {}) };
    if (m.directory) zip.addEmptyDirectory(m.name);
    else if (m.stream) zip.addReadStream(Readable.from(m.stream.chunks()), m.name, { ...options, size: m.stream.size });
    else zip.addBuffer(bytesOf(m), m.name, options);
  }
  zip.end();
  if (Object.keys(patch).length === 0) {
    await pipeline(zip.outputStream, createWriteStream(path));
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let bytes = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(patch)) {
    if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('a patched name keeps its length');
    bytes = Buffer.from(bytes.toString('latin1').split(from).join(to), 'latin1');
  }
  await pipeline(Readable.from([bytes]), createWriteStream(path));
}

/** A tar (or tar.gz) written to `path`; `mode` type bits become tar entry types. */
export async function writeTar(path: string, members: readonly (TestMember & { type?: 'file' | 'symlink' | 'link' | 'directory' })[], gzip = false): Promise<void> {
  const pack = tar.pack();
  const done = gzip ? pipeline(pack, createGzip(), createWriteStream(path)) : pipeline(pack, createWriteStream(path));
  for (const m of members) {
    const type = m.type ?? (m.directory ? 'directory' : 'file');
    if (type !== 'file') {
      pack.entry({ name: m.name, type, ...(type === 'symlink' || type === 'link' ? { linkname: 'target.txt' } : {}) });
      continue;
    }
    await new Promise<void>((resolve, reject) => pack.entry({ name: m.name, size: bytesOf(m).length }, bytesOf(m), (err) => (err ? reject(err) : resolve())));
  }
  pack.finalize();
  await done;
}

/** `n` chunks of `size` zero bytes (a zip bomb's member). */
export function zeros(total: number, chunk = 1024 * 1024): { size: number; chunks: () => Iterable<Buffer> } {
  return {
    size: total,
    *chunks() {
      for (let left = total; left > 0; left -= chunk) yield Buffer.alloc(Math.min(chunk, left));
    },
  };
}
