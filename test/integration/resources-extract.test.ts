/**
 * Archive extraction (issue 19, Build 2; docs/resources.md "Extracting archives"): manage_resource
 * action `extract` starts the extractArchive workflow on a real Temporal server and answers its
 * result; members stream from the archive (copied from platform storage to a temp file) into
 * resources. Both storage drivers: a zip with nested folders (beside, and under a folder named for
 * the archive), a member glob, tar.gz, refusals that write nothing (zip bomb, `../`, executables by
 * name and by bytes, links), idempotent retries by request id, a 1,000-member archive with bounded
 * RSS, and the workflow's replay.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../shared/logging/index.js';
import { EXTRACT_TEMP_PREFIX, manageResourceTool, type ResourceActor, type ResourceView } from '../../shared/resources/index.js';
import { writeTar, writeZip, zeros, type TestMember } from '../support/archives.js';
import type { Driver } from './objstore-fixtures.js';
import { startRequestRuntime, type RequestRuntime } from './resource-requests-fixtures.js';
import { agent, caller, personLib, refused, startResourceEnv, text, type ResourceEnv } from './resources-core-fixtures.js';

describe.each<Driver>(['filesystem', 's3'])('archive extraction (%s driver)', (driver) => {
  let env: ResourceEnv;
  let runtime: RequestRuntime;
  let dir: string;
  let alice: ResourceActor;

  beforeAll(async () => {
    [env, runtime] = await Promise.all([startResourceEnv(driver), startRequestRuntime()]);
    await runtime.startWorker(env.db, { service: env.service, store: env.connections.get('main').store, maxUploadBytes: env.config.resources.managed.max_upload_bytes });
    dir = await mkdtemp(join(tmpdir(), 'archives-test-'));
    alice = agent(env, 'alice');
  }, 180_000);

  afterAll(async () => {
    await runtime?.stop();
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Uploads an archive file as alice's resource at `path/name`. */
  async function upload(path: string, name: string, file: string): Promise<ResourceView> {
    const made = await env.service.create(alice, { library: personLib('alice'), path, file_name: name, if_exists: 'replace', origin: 'agent', body: createReadStream(file) });
    return made.resource;
  }

  async function zipResource(path: string, name: string, members: readonly TestMember[], patch: Record<string, string> = {}): Promise<ResourceView> {
    const file = join(dir, `${randomBytes(4).toString('hex')}.zip`);
    await writeZip(file, members, patch);
    return upload(path, name, file);
  }

  function extract(archive: ResourceView, opts: { members?: string[]; destination?: 'beside' | 'folder'; requestId?: string } = {}) {
    return runtime.requests.extract(
      alice,
      { resourceId: archive.id, ...(opts.members ? { members: opts.members } : {}), destination: opts.destination ?? 'beside', origin: 'agent' },
      opts.requestId ?? randomBytes(6).toString('hex'),
    );
  }

  /** `folder/file` of alice's resources under `prefix`. */
  async function filed(prefix: string): Promise<string[]> {
    const rows = await env.db.query<{ a: string }>(
      `SELECT folder_path || '/' || file_name AS a FROM resources WHERE library_kind = 'person' AND library_key = 'alice' AND (folder_path = $1 OR folder_path LIKE $1 || '/%') ORDER BY 1`,
      [prefix],
    );
    return rows.rows.map((r) => r.a);
  }

  const nested: TestMember[] = [
    { name: 'readme.md', data: '# bundle' },
    { name: 'Data Sets/', directory: true },
    { name: 'Data Sets/2024/q1.csv', data: 'a,b\n1,2\n' },
    { name: 'Data Sets/2024/q2.csv', data: 'a,b\n3,4\n' },
    { name: 'notes/todo.txt', data: 'todo' },
  ];

  it('extracts a zip with nested folders beside the archive, folder names kept to the folder rule; each member with uri, version, reference, table_changes', async () => {
    const archive = await zipResource('inbox', 'bundle.zip', nested);
    const result = await extract(archive);
    expect(result.archive).toEqual({ reference: archive.reference, uri: archive.uri, version: archive.version });
    expect(result.destination).toBe('person:alice/inbox');
    expect(result.members.map((m) => [m.member, m.uri, m.version, m.outcome, m.table_changes])).toEqual([
      ['readme.md', 'mcp://user/alice/inbox/readme.md', 1, 'created', []],
      ['Data Sets/2024/q1.csv', 'mcp://user/alice/inbox/data-sets/2024/q1.csv', 1, 'created', []],
      ['Data Sets/2024/q2.csv', 'mcp://user/alice/inbox/data-sets/2024/q2.csv', 1, 'created', []],
      ['notes/todo.txt', 'mcp://user/alice/inbox/notes/todo.txt', 1, 'created', []],
    ]);
    const q2 = result.members[2]!;
    expect(q2.reference).toMatch(/^mcp:resource:/);
    const read = await env.service.openContent(alice, q2.reference.slice('mcp:resource:'.length), 'resources_read');
    expect(await text(read.body)).toBe('a,b\n3,4\n');
    const origin = await env.db.query<{ origin: string }>(`SELECT origin FROM resource_versions v JOIN resources r ON r.id = v.resource_id WHERE r.folder_path = 'inbox/notes'`);
    expect(origin.rows.map((r) => r.origin)).toEqual(['agent']);

    const under = await extract(archive, { destination: 'folder' });
    expect(under.destination).toBe('person:alice/inbox/bundle');
    expect(await filed('inbox/bundle')).toEqual(['inbox/bundle/data-sets/2024/q1.csv', 'inbox/bundle/data-sets/2024/q2.csv', 'inbox/bundle/notes/todo.txt', 'inbox/bundle/readme.md']);
  });

  it('extracts only the members a glob selects, and reads tar.gz', async () => {
    const archive = await zipResource('globbed', 'pick.zip', nested);
    const result = await extract(archive, { members: ['**/*.csv'] });
    expect(result.members.map((m) => m.member)).toEqual(['Data Sets/2024/q1.csv', 'Data Sets/2024/q2.csv']);
    expect(await filed('globbed')).toEqual(['globbed/data-sets/2024/q1.csv', 'globbed/data-sets/2024/q2.csv', 'globbed/pick.zip']);
    await refused(extract(archive, { members: ['*.pdf'] }), 'invalid');

    const tgz = join(dir, 'a.tar.gz');
    await writeTar(tgz, [{ name: 'top/a.txt', data: 'alpha' }, { name: 'top/b.txt', data: 'beta' }], true);
    const tarball = await upload('tarred', 'a.tar.gz', tgz);
    expect((await extract(tarball, { destination: 'folder' })).members.map((m) => m.uri)).toEqual(['mcp://user/alice/tarred/a/top/a.txt', 'mcp://user/alice/tarred/a/top/b.txt']);
  });

  it('refuses, writing nothing: a zip bomb, a ../ member, an executable by name and by bytes, a symbolic link, a damaged zip, a tar.gz bomb in an unselected member', async () => {
    const cases: Array<{ folder: string; members: TestMember[]; patch?: Record<string, string>; code: string; message: string }> = [
      { folder: 'bomb', members: [{ name: 'ok.txt', data: 'fine' }, { name: 'zeros.bin', stream: zeros(64 * 1024 * 1024) }], code: 'too_large', message: 'zip bomb' },
      { folder: 'traversal', members: [{ name: 'ok.txt', data: 'fine' }, { name: 'aa/evil.txt', data: 'x' }], patch: { 'aa/evil.txt': '../evil.txt' }, code: 'invalid', message: 'path traversal' },
      { folder: 'exe-name', members: [{ name: 'ok.txt', data: 'fine' }, { name: 'tools/setup.exe', data: 'not really' }], code: 'unsupported', message: 'setup.exe' },
      {
        folder: 'exe-bytes',
        members: [{ name: 'ok.txt', data: 'fine' }, { name: 'data.bin', data: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(64)]) }],
        code: 'unsupported',
        message: 'executables are refused',
      },
      { folder: 'link', members: [{ name: 'ok.txt', data: 'fine' }, { name: 'passwd', data: '/etc/passwd', mode: 0o120777 }], code: 'unsupported', message: 'symbolic links' },
    ];
    const damaged = join(dir, 'damaged.zip');
    await writeZip(damaged, [{ name: 'a.txt', data: 'alpha' }]);
    const bytes = await readFile(damaged);
    await writeFile(damaged, bytes.subarray(0, bytes.length - 30));
    const broken = await upload('damaged', 'x.zip', damaged);
    expect((await refused(extract(broken), 'invalid')).message).toContain('cannot be read as zip');
    for (const c of cases) {
      const archive = await zipResource(c.folder, 'x.zip', c.members, c.patch);
      const err = await refused(extract(archive), c.code);
      expect(err.message, c.folder).toContain(c.message);
      expect(await filed(c.folder), c.folder).toEqual([`${c.folder}/x.zip`]);
    }
    // tar.gz: a member not selected is still decompressed (drained), so it counts too.
    const tgzBomb = join(dir, 'bomb.tar.gz');
    await writeTar(tgzBomb, [{ name: 'ok.txt', data: 'fine' }, { name: 'zeros.bin', data: Buffer.alloc(8 * 1024 * 1024) }], true);
    const tarball = await upload('tar-bomb', 'x.tar.gz', tgzBomb);
    expect((await refused(extract(tarball, { members: ['ok.txt'] }), 'too_large')).message).toContain('zip bomb');
    expect(await filed('tar-bomb')).toEqual(['tar-bomb/x.tar.gz']);
    // Each extraction's temp copy is gone, refused or not.
    expect((await readdir(tmpdir())).filter((name) => name.startsWith(EXTRACT_TEMP_PREFIX))).toEqual([]);
  });

  it('answers the same result for the same request id without new versions; the tool derives a request id a retry matches; another request under a used id is refused', async () => {
    const archive = await zipResource('again', 'twice.zip', nested);
    const first = await extract(archive, { requestId: 'req-1' });
    const second = await extract(archive, { requestId: 'req-1' });
    expect(second).toEqual(first);
    await refused(extract(archive, { requestId: 'req-1', members: ['*.md'] }), 'conflict');
    // A new request id over the same bytes: the same files, no new version (skip_unchanged).
    const third = await extract(archive, { requestId: 'req-2' });
    expect(third.members.map((m) => [m.uri, m.version, m.outcome])).toEqual(first.members.map((m) => [m.uri, 1, 'unchanged']));
    const versions = await env.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_versions v JOIN resources r ON r.id = v.resource_id WHERE (r.folder_path = 'again' OR r.folder_path LIKE 'again/%') AND r.file_name <> 'twice.zip'`);
    expect(versions.rows[0]?.n).toBe(4);

    const tool = manageResourceTool(env.service, { config: env.config, requests: runtime.requests });
    const ctx = { caller: caller('alice'), sessionId: 'session-1', signal: new AbortController().signal, log: silentLogger() };
    const call = () => tool.handler({ action: 'extract', reference: archive.reference, members: 'notes/*' } as never, ctx);
    const [a, b] = [await call(), await call()];
    expect(a.isError).toBeFalsy();
    expect(b.structuredContent).toEqual(a.structuredContent);
    const answer = a.structuredContent as { request_id: string; members: Array<{ uri: string }> };
    expect(answer.members.map((m) => m.uri)).toEqual(['mcp://user/alice/again/notes/todo.txt']);
    await runtime.replay(`extract:${archive.id}:${answer.request_id}`);
  });

  it('extracts a 1,000-member archive member by member with bounded memory', async () => {
    const members: TestMember[] = Array.from({ length: 1000 }, (_, i) => ({ name: `m/${Math.floor(i / 100)}/f${i}.bin`, data: randomBytes(64 * 1024), compress: false }));
    const file = join(dir, 'many.zip');
    await writeZip(file, members);
    members.length = 0;
    const archive = await upload('many', 'many.zip', file);
    const archiveBytes = (await stat(file)).size;
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const result = await extract(archive);
      expect(result.members).toHaveLength(1000);
    } finally {
      clearInterval(sampler);
    }
    const growth = peak - before;
    console.log(`extract 1,000 members (${driver}): archive ${(archiveBytes / 2 ** 20).toFixed(1)} MiB, peak RSS growth ${(growth / 2 ** 20).toFixed(1)} MiB`);
    // Generous: well under the archive's own size, which a whole-archive buffer would add at least once.
    expect(growth).toBeLessThan(archiveBytes);
    expect((await filed('many')).length).toBe(1001);
  }, 300_000);
});
