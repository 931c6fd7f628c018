/**
 * A 1 GiB object put and read back through the storage API of each driver, generated as a
 * stream (never held in memory), with the process's RSS sampled throughout: it must grow by less
 * than 128 MiB, and the SHA-256 of what comes back must equal what went in.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MiB, generatedBytes, rssSampler } from '../support/large-bytes.js';
import { useObjstore } from './objstore-fixtures.js';

const total = 1024 * MiB;

describe.each(['s3', 'filesystem'] as const)('1 GiB through the %s driver', (driver) => {
  const rig = useObjstore(driver, (backend) => ({ main: backend.instance() }));
  beforeAll(() => rig.store.createBucket('large'));

  it('puts and reads back 1 GiB with bounded memory and a matching SHA-256', async () => {
    const sampler = rssSampler();
    const source = generatedBytes(total);
    const put = await rig.store.putObject('large', 'one-gib.bin', source.stream, { contentType: 'application/octet-stream' });
    const expected = source.sha256();
    expect(put.size).toBe(total);
    expect(put.sha256).toBe(expected);

    const res = await rig.store.getObject('large', 'one-gib.bin');
    expect(res.head.size).toBe(total);
    const readBack = createHash('sha256');
    let read = 0;
    for await (const chunk of res.body) {
      readBack.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    const memory = sampler.stop();
    expect(read).toBe(total);
    expect(readBack.digest('hex')).toBe(expected);
    console.log(`${driver}: RSS ${Math.round(memory.start / MiB)} MiB → peak ${Math.round(memory.peak / MiB)} MiB (growth ${Math.round(memory.growth / MiB)} MiB)`);
    expect(memory.growth).toBeLessThan(128 * MiB);
    await rig.store.deleteObject('large', 'one-gib.bin');
  }, 300_000);
});
