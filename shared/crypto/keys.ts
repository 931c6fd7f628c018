import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A 32-byte key for one purpose (`objstore-presign`, …). Derived with HKDF-SHA256 from
 * `secrets.encryption_key` when it is set, so every replica derives the same key; otherwise
 * generated once into `<data_dir>/secrets/<purpose>.key` (mode 0600), which serves a single
 * machine across restarts.
 */
export async function purposeKey(opts: { encryptionKey?: string; dataDir: string; purpose: string }): Promise<Uint8Array> {
  if (opts.encryptionKey) return deriveKey(Buffer.from(opts.encryptionKey, 'base64'), opts.purpose);
  const dir = join(opts.dataDir, 'secrets');
  const file = join(dir, `${opts.purpose}.key`);
  try {
    const existing = await readFile(file);
    if (existing.length === 32) return new Uint8Array(existing);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // 'wx': if another process created it first, use theirs.
  await writeFile(file, key, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  return new Uint8Array(await readFile(file));
}

/**
 * A 32-byte key for one purpose derived from key material the deployment configures (HKDF-SHA256,
 * info `platform:<purpose>`): keys for different purposes never equal each other or the material.
 */
export function deriveKey(material: Uint8Array, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', material, Buffer.alloc(0), `platform:${purpose}`, 32));
}
