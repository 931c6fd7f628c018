/**
 * Concurrency on both drivers: simultaneous creates at one address end with exactly one resource
 * (one created; the others 409 or revised as their if_exists says), also across two service
 * instances; a replace racing a delete leaves a consistent state, and a replace of a resource
 * deleted meanwhile is not_found with its uploaded object removed.
 */
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateResult, IfExists } from '../../shared/resources/index.js';
import { body, person, personLib, refused, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';

/** A gate opened once `count` bodies have started being read (every create is past its checks). */
function barrier(count: number) {
  let started = 0;
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return {
    opened,
    open: () => open(),
    body(content: string): Readable {
      let sent = false;
      return new Readable({
        read() {
          if (sent) return;
          sent = true;
          if (++started === count) open();
          void opened.then(() => {
            this.push(Buffer.from(content));
            this.push(null);
          });
        },
      });
    },
  };
}

describe.each(['s3', 'filesystem'] as const)('concurrency (%s)', (driver) => {
  let env: ResourceEnv;
  let n = 0;
  const alice = () => person(env, 'alice');
  const objectsOf = async (id: string) => (await env.objectKeys()).filter((k) => k.startsWith(`${id}/`));

  beforeAll(async () => {
    env = await startResourceEnv(driver);
  }, 120_000);
  afterAll(async () => env?.stop());

  async function race(ifExists: IfExists, contents: string[], useReplica = false) {
    const file_name = `race-${++n}.txt`;
    const gate = barrier(contents.length);
    const replica = env.replica();
    const keysBefore = await env.objectKeys();
    const results = await Promise.allSettled(
      contents.map((c, i) =>
        (useReplica && i % 2 === 1 ? replica : env.service).create(alice(), {
          library: personLib('alice'),
          path: 'race',
          file_name,
          if_exists: ifExists,
          origin: 'portal',
          body: gate.body(c),
        }),
      ),
    );
    const rows = await env.db.query<{ id: string; head_version: number }>(`SELECT id, head_version FROM resources WHERE file_name = $1`, [file_name]);
    const added = (await env.objectKeys()).filter((k) => !keysBefore.includes(k));
    return { results, rows: rows.rows, added };
  }

  it('simultaneous creates with fail: exactly one created, the others 409, one object kept', async () => {
    const { results, rows, added } = await race('fail', ['a', 'b', 'c', 'd', 'e', 'f']);
    expect(rows).toHaveLength(1);
    const ok = results.filter((r): r is PromiseFulfilledResult<CreateResult> => r.status === 'fulfilled');
    expect(ok.map((r) => r.value.outcome)).toEqual(['created']);
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failed).toHaveLength(5);
    for (const f of failed) expect((f.reason as { code: string }).code).toBe('conflict');
    // The losers' uploads were removed: one object more than before, the winner's.
    expect(added).toHaveLength(1);
    expect(added[0]!.startsWith(`${rows[0]!.id}/`)).toBe(true);
  });

  it('simultaneous creates with skip_unchanged and different bytes: one created, the others revised', async () => {
    const { results, rows } = await race('skip_unchanged', ['1', '22', '333', '4444'], true);
    expect(rows).toHaveLength(1);
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value.outcome : `rejected:${String(r.reason)}`)).sort();
    expect(outcomes).toEqual(['created', 'revised', 'revised', 'revised']);
    expect(rows[0]!.head_version).toBe(4);
    const ids = new Set(results.map((r) => (r as PromiseFulfilledResult<CreateResult>).value.resource.id));
    expect(ids).toEqual(new Set([rows[0]!.id]));
    // Every version's object exists (a race loser keeps the key it uploaded under).
    const versions = await env.db.query<{ object_key: string }>('SELECT object_key FROM resource_versions WHERE resource_id = $1', [rows[0]!.id]);
    expect(versions.rowCount).toBe(4);
    const keys = await env.objectKeys();
    for (const v of versions.rows) expect(keys).toContain(v.object_key);
  });

  it('simultaneous creates with skip_unchanged and the same bytes: one created, the others unchanged, one object', async () => {
    const { results, rows, added } = await race('skip_unchanged', ['same', 'same', 'same']);
    expect(rows).toHaveLength(1);
    expect(results.map((r) => (r as PromiseFulfilledResult<CreateResult>).value.outcome).sort()).toEqual(['created', 'unchanged', 'unchanged']);
    expect(rows[0]!.head_version).toBe(1);
    expect(added).toHaveLength(1);
  });

  it('a replace of a resource deleted while its bytes uploaded is not_found and stores nothing', async () => {
    const doc = (await env.service.create(alice(), { library: personLib('alice'), path: 'race', file_name: `gone-${++n}.txt`, if_exists: 'fail', origin: 'portal', body: body('v1') })).resource;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started = false;
    // The body starts streaming (checks passed), then waits until the delete committed.
    const slow = new Readable({
      read() {
        if (started) return;
        started = true;
        void held.then(() => {
          this.push(Buffer.from('v2'));
          this.push(null);
        });
      },
    });
    const replacing = env.service.replaceContent(alice(), doc.id, { body: slow, origin: 'portal' });
    await new Promise((r) => setTimeout(r, 50));
    await env.service.delete(alice(), doc.id, { force: false });
    release();
    await refused(replacing, 'not_found');
    expect(await objectsOf(doc.id)).toEqual([]);
    expect((await env.db.query('SELECT 1 FROM resource_versions WHERE resource_id = $1', [doc.id])).rowCount).toBe(0);
  });

  it('a replace and a delete released together: whichever wins, the end state is consistent', async () => {
    for (let round = 0; round < 6; round++) {
      const doc = (await env.service.create(alice(), { library: personLib('alice'), path: 'race', file_name: `both-${++n}.txt`, if_exists: 'fail', origin: 'portal', body: body('v1') })).resource;
      // Hold the row lock so both reach their transactions, then let them go at once.
      const locker = new pg.Client({ connectionString: env.config.database.dsn });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM resources WHERE id = $1 FOR UPDATE', [doc.id]);
      const replacing = env.service.replaceContent(alice(), doc.id, { body: body(`v2-${round}`), origin: 'portal' });
      const deleting = env.service.delete(alice(), doc.id, { force: false });
      // Settle-handlers attached at once: the loser may reject while the locker is still closing.
      const outcomes = Promise.allSettled([replacing, deleting]);
      await new Promise((r) => setTimeout(r, 100));
      await locker.query('COMMIT');
      await locker.end();
      const [rep, del] = await outcomes;
      expect(del.status).toBe('fulfilled');
      if (rep.status === 'rejected') expect((rep.reason as { code: string }).code).toBe('not_found');
      expect((await env.db.query('SELECT 1 FROM resources WHERE id = $1', [doc.id])).rowCount).toBe(0);
      expect((await env.db.query('SELECT 1 FROM resource_versions WHERE resource_id = $1', [doc.id])).rowCount).toBe(0);
      expect(await objectsOf(doc.id)).toEqual([]);
    }
  });

  it('a folder delete and a create filing into it never leave a file in a deleted folder', async () => {
    for (let round = 0; round < 4; round++) {
      const folder = `racing-${++n}`;
      await env.service.createFolder(alice(), personLib('alice'), folder);
      const [created, deleted] = await Promise.allSettled([
        env.service.create(alice(), { library: personLib('alice'), path: folder, file_name: 'x.txt', if_exists: 'fail', origin: 'portal', body: body('x') }),
        env.service.deleteFolder(alice(), personLib('alice'), folder),
      ]);
      expect(created.status).toBe('fulfilled');
      const folderRow = await env.db.query(`SELECT 1 FROM resource_folders WHERE library_key = 'alice' AND path = $1`, [folder]);
      // The file is filed, so its folder exists (re-recorded if the delete ran first).
      expect(folderRow.rowCount).toBe(1);
      if (deleted.status === 'rejected') expect((deleted.reason as { code: string }).code).toBe('conflict');
    }
  });
});
