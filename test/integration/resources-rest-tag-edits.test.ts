/**
 * PATCH /api/v1/resources/{id} with `add_tags` / `remove_tags` (docs/resources.md, "Edit details";
 * issue 37: the portal's bulk Tag adds to existing tags): the tags are edited from the file's tags
 * as they are when the edit runs under the row lock, so concurrent edits all land (no lost
 * update); the limits and the refusals of `tags` apply; only whoever may change the file may.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TAGS } from '../../shared/resources/index.js';
import { alice, as, bob, multipart, resourceRestCalls, salesAdmin, salesMember, send, startResourceRestApi, type RawResponse, type ResourceRestApi, type Who } from './resources-rest-fixtures.js';

let api: ResourceRestApi;

const { call } = resourceRestCalls(() => api);

async function createFile(who: Who, name: string, tags: string[], library?: string): Promise<string> {
  const form = multipart([...(library ? [{ name: 'library', value: library }] : []), { name: 'path', value: 'tagged' }, ...tags.map((value) => ({ name: 'tags', value })), { name: 'file', filename: name, type: 'text/plain', data: name }]);
  const res = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(who), 'content-type': form.contentType }, body: form.body });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.id;
}

const patch = (who: Who, id: string, body: unknown) => call(who, 'PATCH', `/api/v1/resources/${id}`, body);

function expectRefused(res: RawResponse, status: number, error: string, message?: RegExp): void {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json.error).toBe(error);
  if (message) expect(res.json.message).toMatch(message);
}

describe('PATCH add_tags / remove_tags', () => {
  beforeAll(async () => {
    api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024 });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('add_tags adds to the existing tags (one already there stays once, in its place); remove_tags takes tags off', async () => {
    const id = await createFile(alice, 'plan.txt', ['draft', 'q1']);
    const added = await patch(alice, id, { add_tags: ['q1', 'sales', ' review '] });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    expect(added.json.tags).toEqual(['draft', 'q1', 'sales', 'review']);
    const removed = await patch(alice, id, { remove_tags: ['draft', 'absent'], add_tags: ['final'] });
    expect(removed.json.tags).toEqual(['q1', 'sales', 'review', 'final']);
    // Read back: what the answer says is what is stored.
    expect((await call(alice, 'GET', `/api/v1/resources/${id}`)).json.tags).toEqual(['q1', 'sales', 'review', 'final']);
  });

  it('concurrent add_tags edits of one file all land: each applies to the tags as they are under the row lock', async () => {
    const id = await createFile(alice, 'race.txt', ['start']);
    // Hold the row so every edit is queued behind it; an edit that read the tags before the lock
    // would then write over the others.
    const holder = new pg.Client({ connectionString: api.config.database.dsn });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM resources WHERE id = $1 FOR UPDATE', [id]);
      const tags = ['t1', 't2', 't3', 't4', 't5'];
      const edits = [...tags.map((t) => patch(alice, id, { add_tags: [t] })), patch(alice, id, { remove_tags: ['start'] })];
      await expect
        .poll(
          async () =>
            // Read outside the holder's transaction: pg_stat_activity is a snapshot within one.
            (await api.db.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM resources WHERE id = $1 FOR UPDATE%'`))
              .rows[0]!.n,
          { timeout: 15_000, interval: 50 },
        )
        .toBe(String(edits.length));
      await holder.query('COMMIT');
      const answers = await Promise.all(edits);
      for (const a of answers) expect(a.status, JSON.stringify(a.json)).toBe(200);
      const final = (await call(alice, 'GET', `/api/v1/resources/${id}`)).json.tags as string[];
      expect([...final].sort()).toEqual(tags);
    } finally {
      await holder.end();
    }
  });

  it('refuses tags together with add_tags or remove_tags, a tag both added and removed, and a result over the tag limit; nothing changes', async () => {
    const id = await createFile(alice, 'limits.txt', ['keep']);
    expectRefused(await patch(alice, id, { tags: ['a'], add_tags: ['b'] }), 400, 'invalid', /not both/);
    expectRefused(await patch(alice, id, { tags: ['a'], remove_tags: ['keep'] }), 400, 'invalid', /not both/);
    expectRefused(await patch(alice, id, { add_tags: ['x'], remove_tags: ['x'] }), 400, 'invalid', /"x" is both added and removed/);
    expectRefused(await patch(alice, id, { add_tags: 'x' }), 400, 'invalid_request');
    expectRefused(await patch(alice, id, { add_tags: ['bad\u0007tag'] }), 400, 'invalid');
    const many = Array.from({ length: MAX_TAGS }, (_, i) => `tag-${i}`);
    expectRefused(await patch(alice, id, { add_tags: many }), 400, 'invalid', new RegExp(`${MAX_TAGS + 1} tags; at most ${MAX_TAGS}`));
    expect((await call(alice, 'GET', `/api/v1/resources/${id}`)).json.tags).toEqual(['keep']);
  });

  it('only whoever may change the file may add tags: another person gets 404, a persona member who may only read 403, and the tags stay', async () => {
    const id = await createFile(alice, 'private.txt', ['mine']);
    expectRefused(await patch(bob, id, { add_tags: ['theirs'] }), 404, 'not_found');
    expect((await call(alice, 'GET', `/api/v1/resources/${id}`)).json.tags).toEqual(['mine']);
    const shared = await createFile(salesAdmin, 'team.txt', ['team'], 'persona:sales');
    expectRefused(await patch(salesMember, shared, { add_tags: ['member'] }), 403, 'forbidden');
    expectRefused(await patch(salesMember, shared, { remove_tags: ['team'] }), 403, 'forbidden');
    expect((await call(salesAdmin, 'GET', `/api/v1/resources/${shared}`)).json.tags).toEqual(['team']);
    expect((await patch(salesAdmin, shared, { add_tags: ['curated'] })).json.tags).toEqual(['team', 'curated']);
  });
});
