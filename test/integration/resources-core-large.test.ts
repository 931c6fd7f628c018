/**
 * A 1 GiB create through the service on each driver, generated as a stream and never held in
 * memory: RSS must grow by less than 128 MiB during the create and the recorded SHA-256 must match; the content
 * reads back with the same digest. An upload past the ceiling stores nothing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, generatedBytes, rssSampler } from '../support/large-bytes.js';
import { person, personLib, refused, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';

const GiB = 1024 * MiB;

describe.each(['s3', 'filesystem'] as const)('1 GiB resource through the service (%s)', (driver) => {
  let env: ResourceEnv;
  beforeAll(async () => {
    env = await startResourceEnv(driver, { extraYaml: `resources:\n  managed:\n    max_upload_bytes: ${GiB}\n` });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('creates 1 GiB with bounded memory and a matching SHA-256', async () => {
    const alice = person(env, 'alice');
    // Warm up (bucket creation, first S3 and database connections) outside the measured window.
    const warm = await env.service.create(alice, { library: personLib('alice'), path: 'big', file_name: 'warm.bin', if_exists: 'fail', origin: 'portal', body: generatedBytes(MiB).stream });
    await env.service.delete(alice, warm.resource.id, { force: false });
    const sampler = rssSampler();
    const source = generatedBytes(GiB);
    const res = await env.service.create(alice, { library: personLib('alice'), path: 'big', file_name: 'one-gib.bin', if_exists: 'fail', origin: 'portal', body: source.stream });
    const expected = source.sha256();
    // The bound is on the create; the read-back below only checks the bytes.
    const memory = sampler.stop();
    expect(res.outcome).toBe('created');
    expect(res.resource.size).toBe(GiB);
    expect(res.resource.content_sha256).toBe(expected);
    const opened = await env.service.openContent(alice, res.resource.id, 'portal_download');
    const back = createHash('sha256');
    let read = 0;
    for await (const chunk of opened.body) {
      back.update(chunk as Buffer);
      read += (chunk as Buffer).length;
    }
    expect(read).toBe(GiB);
    expect(back.digest('hex')).toBe(expected);
    console.log(`${driver}: RSS ${Math.round(memory.start / MiB)} MiB → peak ${Math.round(memory.peak / MiB)} MiB (growth ${Math.round(memory.growth / MiB)} MiB)`);
    expect(memory.growth).toBeLessThan(128 * MiB);
    await env.service.delete(alice, res.resource.id, { force: false });
    expect(await env.objectKeys()).toEqual([]);
  }, 300_000);

  it('one byte past the ceiling stores nothing: no object, no row', async () => {
    const alice = person(env, 'alice');
    const source = generatedBytes(GiB + 1);
    const err = await refused(
      env.service.create(alice, { library: personLib('alice'), path: 'big', file_name: 'too-big.bin', if_exists: 'fail', origin: 'portal', body: source.stream }),
      'too_large',
    );
    expect(err.message).toContain(`${GiB} bytes`);
    expect(await env.objectKeys()).toEqual([]);
    expect((await env.db.query('SELECT 1 FROM resources')).rowCount).toBe(0);
  }, 300_000);
});
