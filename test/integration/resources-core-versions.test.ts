/**
 * The spec's "Resource versions" table, row by row, on both object-store drivers: create,
 * skip_unchanged (same and different bytes), fail/absent on a taken address, replace, restore,
 * pruning past max_versions, a legacy resource without a hash, delete; plus the upload ceiling
 * and executable refusals storing nothing.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  body,
  globalLib,
  person,
  personLib,
  refused,
  startResourceEnv,
  text,
  type ResourceEnv,
} from './resources-core-fixtures.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(['s3', 'filesystem'] as const)('resource versions (%s)', (driver) => {
  let env: ResourceEnv;
  const alice = () => person(env, 'alice');
  let n = 0;
  /** A fresh file name per test, so tests do not see each other's files. */
  const fresh = (ext = 'txt') => `file-${++n}.${ext}`;
  const create = (file_name: string, content: string, if_exists: 'fail' | 'skip_unchanged' | 'replace' = 'fail', extra = {}) =>
    env.service.create(alice(), { library: personLib('alice'), path: 'versions', file_name, if_exists, origin: 'portal', body: body(content), ...extra });
  const versionRows = async (id: string) =>
    (await env.db.query<{ version: number; object_key: string }>('SELECT version, object_key FROM resource_versions WHERE resource_id = $1 ORDER BY version', [id])).rows;

  beforeAll(async () => {
    env = await startResourceEnv(driver, { extraYaml: 'resources:\n  managed:\n    max_versions: 3\n    max_upload_bytes: 1024\n' });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('absent → version 1: outcome created, folders recorded', async () => {
    const name = fresh();
    const res = await env.service.create(alice(), {
      library: personLib('alice'),
      path: 'versions/deep/er',
      file_name: name,
      description: 'd',
      tags: ['t'],
      if_exists: 'skip_unchanged',
      origin: 'portal',
      body: body('v1'),
    });
    expect(res.outcome).toBe('created');
    expect(res.resource).toMatchObject({ version: 1, size: 2, content_sha256: sha('v1'), content_type: 'text/plain', uploader: 'alice', library: 'person:alice', path: 'versions/deep/er' });
    const folders = await env.db.query<{ path: string }>(`SELECT path FROM resource_folders WHERE library_key = 'alice' ORDER BY path`);
    expect(folders.rows.map((r) => r.path)).toEqual(expect.arrayContaining(['versions', 'versions/deep', 'versions/deep/er']));
    const versions = await env.service.versions(alice(), res.resource.id);
    expect(versions).toEqual([expect.objectContaining({ version: 1, uploader: 'alice', size: 2, content_sha256: sha('v1'), change_summary: null, restored_from: null })]);
  });

  it('skip_unchanged with the same bytes → unchanged, nothing written', async () => {
    const name = fresh();
    const first = await create(name, 'same');
    const keysBefore = await env.objectKeys();
    const again = await create(name, 'same', 'skip_unchanged', { description: 'ignored' });
    expect(again.outcome).toBe('unchanged');
    expect(again.resource).toEqual(first.resource);
    expect(await env.objectKeys()).toEqual(keysBefore);
    expect(await versionRows(first.resource.id)).toHaveLength(1);
  });

  it('skip_unchanged with different bytes → revised; id, address, name, description, tags kept', async () => {
    const name = fresh();
    const first = await create(name, 'one', 'fail', { description: 'keep me', tags: ['a'], display_name: 'Shown' });
    const again = await create(name, 'two!', 'skip_unchanged', { description: 'not applied', tags: ['b'], display_name: 'Other' });
    expect(again.outcome).toBe('revised');
    expect(again.resource).toMatchObject({
      id: first.resource.id,
      uri: first.resource.uri,
      file_name: name,
      display_name: 'Shown',
      description: 'keep me',
      tags: ['a'],
      version: 2,
      size: 4,
      content_sha256: sha('two!'),
    });
    const opened = await env.service.openContent(alice(), first.resource.id, 'portal_download');
    expect(await text(opened.body)).toBe('two!');
  });

  it('fail or absent if_exists on a taken address → 409, nothing stored', async () => {
    const name = fresh();
    const first = await create(name, 'one');
    const keysBefore = await env.objectKeys();
    const err = await refused(create(name, 'other'), 'conflict');
    expect(err.message).toContain(`"${name}" already exists`);
    expect(err.message).toContain(first.resource.uri);
    // A missing if_exists (as a caller outside TypeScript may send) behaves as fail.
    await refused(
      env.service.create(alice(), { library: personLib('alice'), path: 'versions', file_name: name, origin: 'portal', body: body('x') } as never),
      'conflict',
    );
    expect(await env.objectKeys()).toEqual(keysBefore);
    expect((await env.service.get(alice(), first.resource.id)).version).toBe(1);
  });

  it('replace (and create with if_exists replace) → new head; file name, URI and id unchanged; agents told', async () => {
    const name = fresh('csv');
    const first = await create(name, 'a,b\n');
    const events: string[] = [];
    const off = env.service.onChange((e) => events.push(`${e.kind}:${e.resource.id}`));
    const replaced = await env.service.replaceContent(alice(), first.resource.id, { body: body('a,b\n1,2\n'), origin: 'portal', change_summary: 'more rows' });
    expect(replaced).toMatchObject({ id: first.resource.id, file_name: name, uri: first.resource.uri, version: 2, content_type: 'text/csv' });
    const viaCreate = await create(name, 'a,b\n3,4\n', 'replace');
    expect(viaCreate.outcome).toBe('revised');
    expect(viaCreate.resource).toMatchObject({ id: first.resource.id, version: 3 });
    off();
    expect(events).toEqual([`replaced:${first.resource.id}`, `replaced:${first.resource.id}`]);
    const versions = await env.service.versions(alice(), first.resource.id);
    expect(versions.map((v) => [v.version, v.change_summary])).toEqual([
      [3, null],
      [2, 'more rows'],
      [1, null],
    ]);
  });

  it('replace with if_head: lands on that head; a newer head meanwhile → conflict, nothing stored', async () => {
    const first = await create(fresh('csv'), 'a,b\n');
    const onHead = await env.service.replaceContent(alice(), first.resource.id, { body: body('a,b\n1,2\n'), origin: 'portal', if_head: 1 });
    expect(onHead.version).toBe(2);
    const keysBefore = await env.objectKeys();
    const stale = env.service.replaceContent(alice(), first.resource.id, { body: body('a,b\n9,9\n'), origin: 'portal', if_head: 1 });
    await expect(stale).rejects.toMatchObject({ code: 'conflict', details: { head_version: 2 } });
    expect(await env.objectKeys()).toEqual(keysBefore);
    expect((await env.service.get(alice(), first.resource.id)).version).toBe(2);
  });

  it('replace keeps the file name whatever the upload was called; the type follows the declared type', async () => {
    const name = fresh('md');
    const first = await create(name, '# a');
    const replaced = await env.service.replaceContent(alice(), first.resource.id, { body: body('plain'), content_type: 'text/plain', origin: 'portal' });
    expect(replaced.file_name).toBe(name);
    expect(replaced.content_type).toBe('text/plain');
  });

  it('restore of version k → new head with the exact bytes of k, labeled; history append-only', async () => {
    const name = fresh();
    const first = await create(name, 'version one');
    await env.service.replaceContent(alice(), first.resource.id, { body: body('version two'), origin: 'portal' });
    const restored = await env.service.restore(alice(), first.resource.id, 1);
    expect(restored).toMatchObject({ version: 3, content_sha256: sha('version one'), size: 11 });
    const versions = await env.service.versions(alice(), first.resource.id);
    expect(versions[0]).toMatchObject({ version: 3, change_summary: 'restored from version 1', restored_from: 1, content_sha256: sha('version one') });
    expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(await text((await env.service.openContent(alice(), first.resource.id, 'portal_download')).body)).toBe('version one');
    // Each version owns its object: the restore copied the bytes.
    const rows = await versionRows(first.resource.id);
    expect(new Set(rows.map((r) => r.object_key)).size).toBe(3);
    await refused(env.service.restore(alice(), first.resource.id, 9), 'not_found');
  });

  it('past max_versions the oldest version and exactly its object are deleted; the head never', async () => {
    const name = fresh();
    const first = await create(name, 'c1');
    for (const c of ['c2', 'c3']) await env.service.replaceContent(alice(), first.resource.id, { body: body(c), origin: 'portal' });
    const before = await versionRows(first.resource.id);
    expect(before.map((r) => r.version)).toEqual([1, 2, 3]);
    const allBefore = await env.objectKeys();
    await env.service.replaceContent(alice(), first.resource.id, { body: body('c4'), origin: 'portal' });
    const after = await versionRows(first.resource.id);
    expect(after.map((r) => r.version)).toEqual([2, 3, 4]);
    const allAfter = await env.objectKeys();
    expect(allAfter).not.toContain(before[0]!.object_key);
    // Exactly one object left (v1) and one came (v4).
    expect(allBefore.filter((k) => !allAfter.includes(k))).toEqual([before[0]!.object_key]);
    expect(allAfter.filter((k) => !allBefore.includes(k))).toEqual([after[2]!.object_key]);
    expect(await text((await env.service.openContent(alice(), first.resource.id, 'portal_download')).body)).toBe('c4');
  });

  it('a restored head survives pruning of the version it was copied from', async () => {
    const name = fresh();
    const first = await create(name, 'origin bytes');
    await env.service.replaceContent(alice(), first.resource.id, { body: body('x2'), origin: 'portal' });
    await env.service.replaceContent(alice(), first.resource.id, { body: body('x3'), origin: 'portal' });
    await env.service.restore(alice(), first.resource.id, 1); // v4; v1 pruned now
    expect((await versionRows(first.resource.id)).map((r) => r.version)).toEqual([2, 3, 4]);
    expect(await text((await env.service.openContent(alice(), first.resource.id, 'portal_download')).body)).toBe('origin bytes');
  });

  it('legacy resource with no recorded hash: first skip_unchanged re-upload → new version', async () => {
    const name = fresh();
    const first = await create(name, 'legacy');
    await env.db.query('UPDATE resources SET content_sha256 = NULL WHERE id = $1', [first.resource.id]);
    await env.db.query('UPDATE resource_versions SET content_sha256 = NULL WHERE resource_id = $1', [first.resource.id]);
    const again = await create(name, 'legacy', 'skip_unchanged');
    expect(again.outcome).toBe('revised');
    expect(again.resource).toMatchObject({ version: 2, content_sha256: sha('legacy') });
    // Now it has a hash, the same bytes are unchanged.
    expect((await create(name, 'legacy', 'skip_unchanged')).outcome).toBe('unchanged');
  });

  it('delete → absent; stored bytes and all versions removed', async () => {
    const name = fresh();
    const first = await create(name, 'd1');
    await env.service.replaceContent(alice(), first.resource.id, { body: body('d2'), origin: 'portal' });
    const keys = (await versionRows(first.resource.id)).map((r) => r.object_key);
    await env.service.delete(alice(), first.resource.id, { force: false });
    await refused(env.service.get(alice(), first.resource.id), 'not_found');
    expect(await versionRows(first.resource.id)).toEqual([]);
    const remaining = await env.objectKeys();
    for (const k of keys) expect(remaining).not.toContain(k);
    const events = await env.db.query(`SELECT kind FROM resource_events WHERE resource_id = $1 ORDER BY id`, [first.resource.id]);
    expect(events.rows.map((r) => r.kind)).toEqual(['created', 'replaced', 'deleted']);
  });

  it('an upload over max_upload_bytes → 413, no object and no row', async () => {
    const name = fresh();
    const keysBefore = await env.objectKeys();
    const err = await refused(create(name, 'x'.repeat(1025)), 'too_large');
    expect(err.message).toMatch(/upload limit of 1024 bytes/);
    expect(await env.objectKeys()).toEqual(keysBefore);
    const rows = await env.db.query('SELECT 1 FROM resources WHERE file_name = $1', [name]);
    expect(rows.rowCount).toBe(0);
    // Exactly at the limit is fine.
    expect((await create(name, 'x'.repeat(1024))).outcome).toBe('created');
  });

  it('an over-limit replace stores nothing and keeps the head', async () => {
    const first = await create(fresh(), 'small');
    const keysBefore = await env.objectKeys();
    await refused(env.service.replaceContent(alice(), first.resource.id, { body: body('y'.repeat(2000)), origin: 'portal' }), 'too_large');
    expect(await env.objectKeys()).toEqual(keysBefore);
    expect((await env.service.get(alice(), first.resource.id)).version).toBe(1);
  });

  it('executables are refused by extension, by MIME type and by sniffed content; nothing stored', async () => {
    const keysBefore = await env.objectKeys();
    expect((await refused(create('tool.exe', 'MZ'), 'unsupported')).message).toMatch(/extension \.exe/);
    expect((await refused(create(fresh('dat'), 'x', 'fail', { content_type: 'application/x-msdownload' }), 'unsupported')).message).toMatch(
      /executable type application\/x-msdownload/,
    );
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(100)]);
    const sniffed = await refused(
      env.service.create(alice(), { library: personLib('alice'), path: 'versions', file_name: 'innocent.txt', if_exists: 'fail', origin: 'portal', body: body(elf) }),
      'unsupported',
    );
    expect(sniffed.message).toMatch(/innocent\.txt" is an ELF executable/);
    expect(await env.objectKeys()).toEqual(keysBefore);
    expect((await env.db.query(`SELECT 1 FROM resources WHERE file_name IN ('tool.exe', 'innocent.txt')`)).rowCount).toBe(0);
    // A replace cannot smuggle one in either.
    const first = await create(fresh(), 'text');
    await refused(env.service.replaceContent(alice(), first.resource.id, { body: body(elf), origin: 'portal' }), 'unsupported');
    expect((await env.service.get(alice(), first.resource.id)).version).toBe(1);
    // Scripts with a shebang are documents, not refused.
    expect((await create(fresh('py'), '#!/usr/bin/env python3\nprint(1)\n')).outcome).toBe('created');
  });

  it('display name defaults to the file name without extension', async () => {
    const res = await env.service.create(alice(), { library: globalLib, path: '', file_name: 'x.txt', if_exists: 'fail', origin: 'portal', body: body('x') }).catch((e: Error) => e);
    expect(res).toBeInstanceOf(Error); // alice may not add to global
    const made = await create('Brand Guide.v2.pdf', '%PDF-1.7');
    expect(made.resource.display_name).toBe('Brand Guide.v2');
    expect(made.resource.content_type).toBe('application/pdf');
  });
});
