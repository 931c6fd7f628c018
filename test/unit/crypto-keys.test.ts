import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { purposeKey } from '../../shared/crypto/index.js';

describe('purposeKey', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('derives the same key from the encryption key on every replica, distinct per purpose', async () => {
    const encryptionKey = Buffer.alloc(32, 3).toString('base64');
    const a = await purposeKey({ encryptionKey, dataDir: '/nonexistent', purpose: 'objstore-presign' });
    const b = await purposeKey({ encryptionKey, dataDir: '/elsewhere', purpose: 'objstore-presign' });
    const c = await purposeKey({ encryptionKey, dataDir: '/nonexistent', purpose: 'other' });
    expect(a).toHaveLength(32);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false);
  });

  it('without an encryption key, generates one key file (0600) and reuses it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'keys-'));
    dirs.push(dataDir);
    const first = await purposeKey({ dataDir, purpose: 'objstore-presign' });
    const again = await purposeKey({ dataDir, purpose: 'objstore-presign' });
    expect(Buffer.from(first).equals(Buffer.from(again))).toBe(true);
    expect((await stat(join(dataDir, 'secrets', 'objstore-presign.key'))).mode & 0o777).toBe(0o600);
  });
});
