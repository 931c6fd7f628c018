/**
 * Search indexing end to end (spec document 2, "Search indexing", "Index rules", search ranking's
 * authority row): the real resource service on a fresh Postgres, both storage drivers, a Temporal
 * dev server and the platform worker with the search activities. Indexing is started as the
 * dispatcher does (signal-with-start of `reindex` on `index:{id}`) and awaited through the handle.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../shared/logging/index.js';
import { readableLibraries, ResourceJobDispatcher, resourceJobKinds, type CreateInput, type ResourceActor } from '../../shared/resources/index.js';
import { parseConfig } from '../../shared/config/index.js';
import { indexResource, laggingResources, rulesFingerprint, searchLexical, type SearchHit } from '../../shared/search/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { indexSweepSchedule, temporalJobStarter, workflowBundle, type PlatformWorker } from '../../worker/index.js';
import { indexWorkflowId, type IndexResourceInput } from '../../workflows/index.js';
import type { SearchIndexOutcome } from '../../activities/search.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { docx, docxType, pdf } from '../fixtures/search/documents.js';
import { body, globalLib, person, personaLib, personLib, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';
import { startSearchWorker } from './search-worker-fixtures.js';

const rulesYaml = `resources:
  index:
    - folder: "private/**"
      index: not_indexed
    - origin: [script]
      index: details_only
`;

let temporal: TestTemporal;
let handle: TemporalHandle;

beforeAll(async () => {
  temporal = await startTestTemporal();
  handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await temporal?.stop();
});

describe.each(['filesystem', 's3'] as const)('search indexing (%s)', (driver) => {
  let env: ResourceEnv;
  let worker: PlatformWorker;
  let taskQueue: string;
  let alice: ResourceActor;
  let bob: ResourceActor;
  let root: ResourceActor;
  let sam: ResourceActor;
  let fred: ResourceActor;

  beforeAll(async () => {
    env = await startResourceEnv(driver, { extraYaml: rulesYaml });
    ({ worker, taskQueue } = await startSearchWorker(env, temporal, handle, { queuePrefix: 'search' }));
    alice = person(env, 'alice');
    bob = person(env, 'bob');
    root = person(env, 'root', ['platform-admin']);
    sam = person(env, 'sam', ['sales']);
    fred = person(env, 'fred', ['finance']);
  }, 60_000);

  afterAll(async () => {
    await worker?.shutdown();
    await env?.stop();
  });

  /** Starts indexing as the job dispatcher does (kind `index`) and awaits that run's result. */
  async function indexed(resourceId: string): Promise<SearchIndexOutcome> {
    const spec = resourceJobKinds.index;
    const request = { kind: 'index' as const, resourceId, params: {} };
    await temporalJobStarter(handle.client).start({ workflowType: spec.workflowType, workflowId: spec.workflowId(request), taskQueue: spec.taskQueue(taskQueue), args: spec.args(request), signal: spec.signal });
    return handle.client.workflow.getHandle<(input: IndexResourceInput) => Promise<SearchIndexOutcome>>(indexWorkflowId(resourceId)).result();
  }

  async function search(actor: ResourceActor, query: string): Promise<SearchHit[]> {
    return (await searchLexical(env.db, readableLibraries(actor), query, { limit: 50 })).hits;
  }

  async function ids(actor: ResourceActor, query: string): Promise<string[]> {
    return (await search(actor, query)).map((h) => h.id);
  }

  async function upload(actor: ResourceActor, input: Partial<CreateInput> & { file_name: string; text: string | Buffer }) {
    const { text, ...rest } = input;
    const { resource } = await env.service.create(actor, { library: personLib(actor.subject), path: '', if_exists: 'fail', origin: 'portal', ...rest, body: body(text) });
    return resource;
  }

  it('metadata is findable as soon as the upload commits; contents once the workflow completes', async () => {
    await env.service.createFolder(alice, personLib('alice'), 'reports/quarterly');
    await env.service.describeFolder(alice, personLib('alice'), 'reports/quarterly', 'Board packs prepared by the controlling team');
    const file = await upload(alice, {
      path: 'reports/quarterly',
      file_name: 'q3-overview.md',
      display_name: 'Third quarter overview',
      description: 'Narrative for the shareholders',
      tags: ['finance'],
      content_type: 'text/markdown',
      text: '# Overview\n\nThe zeppelin division grew faster than expected.',
    });
    // No workflow has run: every metadata field is already searchable.
    for (const q of ['third quarter', 'shareholders', 'finance', 'q3-overview.md', 'quarterly', 'controlling', 'markdown']) {
      expect(await ids(alice, q), q).toContain(file.id);
    }
    expect(await ids(alice, 'zeppelin')).not.toContain(file.id);

    expect(await indexed(file.id)).toMatchObject({ status: 'indexed', version: 1, mode: 'contents' });
    const [hit] = await search(alice, 'zeppelin');
    expect(hit).toMatchObject({ kind: 'resource', id: file.id, reference: `mcp:resource:${file.id}`, uri: file.uri, title: 'Third quarter overview' });
    expect(hit!.snippet).toContain('zeppelin');
    // The name outranks the contents: a file named by the word comes first.
    const named = await upload(alice, { file_name: 'zeppelin-fleet.txt', text: 'a list of airships' });
    expect((await ids(alice, 'zeppelin')).slice(0, 2)).toEqual([named.id, file.id]);
    // A misspelt name still finds it by trigram similarity.
    expect(await ids(alice, 'zepelin')).toContain(named.id);
  });

  it('contents of a PDF and a docx are findable once indexed', async () => {
    const report = await upload(alice, { file_name: 'report.pdf', content_type: 'application/pdf', text: pdf(['Migration of the ocelot population']) });
    const memo = await upload(alice, { file_name: 'memo.docx', content_type: docxType, text: await docx(['Budget for the kinkajou enclosure']) });
    expect(await indexed(report.id)).toMatchObject({ mode: 'contents' });
    expect(await indexed(memo.id)).toMatchObject({ mode: 'contents' });
    expect(await ids(alice, 'ocelot')).toEqual([report.id]);
    expect(await ids(alice, 'kinkajou')).toEqual([memo.id]);
  });

  it('each search setting: Not indexed, Details only, Contents, Default', async () => {
    const hidden = await upload(alice, { file_name: 'hidden-walrus.txt', search_setting: 'not_indexed', text: 'walrus' });
    expect(await ids(alice, 'walrus')).not.toContain(hidden.id);
    expect(await indexed(hidden.id)).toMatchObject({ mode: 'not_indexed' });
    expect(await ids(alice, 'walrus')).not.toContain(hidden.id);

    const details = await upload(alice, { file_name: 'details-notes.txt', search_setting: 'details_only', text: 'narwhal' });
    expect(await indexed(details.id)).toMatchObject({ mode: 'details' });
    expect(await ids(alice, 'narwhal')).not.toContain(details.id);
    expect(await ids(alice, 'details notes')).toContain(details.id);

    const table = await upload(alice, { file_name: 'herd.csv', search_setting: 'contents', content_type: 'text/csv', text: 'animal,count\nokapi,3\n' });
    expect(await indexed(table.id)).toMatchObject({ mode: 'contents' });
    expect(await ids(alice, 'okapi')).toContain(table.id);

    // Switching a file to Not indexed hides it at once (the setting is read live).
    await env.service.update(alice, table.id, { search_setting: 'not_indexed' });
    expect(await ids(alice, 'okapi')).not.toContain(table.id);
    expect(await ids(alice, 'herd')).not.toContain(table.id);
  });

  it('default rules: a CSV on its details (its column names), a file over 8 MB on metadata alone', async () => {
    const csv = await upload(alice, { file_name: 'sightings.csv', content_type: 'text/csv', text: 'species,habitat\nquokka,island\n' });
    expect(await indexed(csv.id)).toMatchObject({ mode: 'details' });
    expect(await ids(alice, 'habitat')).toContain(csv.id);
    expect(await ids(alice, 'quokka')).not.toContain(csv.id);

    const big = Buffer.alloc(8 * 1024 * 1024 + 1, 'a');
    big.write('axolotl ', 0);
    const large = await upload(alice, { file_name: 'large-log.txt', content_type: 'text/plain', text: big });
    expect(await indexed(large.id)).toMatchObject({ mode: 'metadata' });
    expect(await ids(alice, 'axolotl')).not.toContain(large.id);
    expect(await ids(alice, 'large log')).toContain(large.id);
  });

  it('configured rules: by folder (not indexed) and by write origin (details only)', async () => {
    const secret = await upload(alice, { path: 'private/keys', file_name: 'pangolin.txt', text: 'pangolin' });
    expect(await indexed(secret.id)).toMatchObject({ mode: 'not_indexed' });
    expect(await ids(alice, 'pangolin')).not.toContain(secret.id);

    const scripted = await upload(alice, { file_name: 'script-output.txt', origin: 'script', text: 'capybara' });
    const portal = await upload(alice, { file_name: 'portal-upload.txt', origin: 'portal', text: 'capybara' });
    expect(await indexed(scripted.id)).toMatchObject({ mode: 'details' });
    expect(await indexed(portal.id)).toMatchObject({ mode: 'contents' });
    const found = await ids(alice, 'capybara');
    expect(found).toContain(portal.id);
    expect(found).not.toContain(scripted.id);
  });

  it('a rule change reaches files already indexed at the next sweep: re-decided, contents read only when the mode changed', async () => {
    const memo = await upload(alice, { path: 'board', file_name: 'memo.txt', text: 'the okapi merger' });
    const other = await upload(alice, { path: 'notes', file_name: 'other.txt', text: 'the okapi picnic' });
    await indexed(memo.id);
    await indexed(other.id);
    expect(await ids(alice, 'okapi')).toEqual(expect.arrayContaining([memo.id, other.id]));
    const current = rulesFingerprint(env.config.resources.index);
    expect(await laggingResources(env.db, 10_000, current)).not.toContain(memo.id);

    // The deployment adds a rule: board/** is not searchable.
    const { config: changed } = parseConfig(`resources:\n  index:\n    - folder: "board/**"\n      index: not_indexed\n${rulesYaml.replace('resources:\n  index:\n', '')}`, {});
    const next = rulesFingerprint(changed.resources.index);
    expect(next).not.toBe(current);
    const lagging = await laggingResources(env.db, 10_000, next);
    expect(lagging).toEqual(expect.arrayContaining([memo.id, other.id]));
    const deps = { config: changed, db: env.db, resources: env.service, store: env.connections.get('main').store };
    expect(await indexResource(deps, memo.id)).toMatchObject({ status: 'indexed', mode: 'not_indexed' });
    // The same mode under the new rules: nothing is read again, the row only notes the rules.
    expect(await indexResource(deps, other.id)).toMatchObject({ status: 'unchanged', mode: 'contents' });
    expect(await ids(alice, 'okapi')).toEqual([other.id]);
    const after = await laggingResources(env.db, 10_000, next);
    expect(after).not.toContain(memo.id);
    expect(after).not.toContain(other.id);
  });

  it('a folder entry and its description reach search after the sweep', async () => {
    const path = 'data/clicks';
    await env.service.createFolder(alice, personLib('alice'), path);
    const files = [];
    for (const day of ['01', '02', '03']) files.push(await upload(alice, { path, file_name: `day-${day}.csv`, content_type: 'text/csv', text: 'ts,url\n1,/\n' }));
    // Counted in the entry, never named: the person asked for it not to be found.
    files.push(await upload(alice, { path, file_name: 'day-00-secret.csv', content_type: 'text/csv', search_setting: 'not_indexed', text: 'ts,url\n' }));
    await env.service.describeFolder(alice, personLib('alice'), path, 'Clickstream exports from the storefront');
    expect((await search(alice, 'storefront')).filter((h) => h.kind === 'folder')).toEqual([]);

    // Nothing indexed these files yet (as if their hand-off were lost): the sweep asks for their
    // indexing through the job outbox, whose dispatcher starts it; the next pass builds the entry.
    const sweep = indexSweepSchedule(taskQueue);
    await env.db.query('DELETE FROM resource_jobs');
    await handle.client.workflow.execute('indexSweep', { workflowId: `sweep-${randomBytes(4).toString('hex')}`, taskQueue, args: sweep.args });
    const queued = await env.db.query<{ resource_id: string }>('SELECT resource_id FROM resource_jobs');
    expect(queued.rows.map((r) => r.resource_id)).toEqual(expect.arrayContaining(files.map((f) => f.id)));
    const dispatcher = new ResourceJobDispatcher({ db: env.db, starter: temporalJobStarter(handle.client), platformQueue: taskQueue, log: silentLogger() });
    await dispatcher.sweep();
    await dispatcher.close();
    for (const f of files) await handle.client.workflow.getHandle(indexWorkflowId(f.id)).result();
    await handle.client.workflow.execute('indexSweep', { workflowId: `sweep-${randomBytes(4).toString('hex')}`, taskQueue, args: sweep.args });

    const folder = (await search(alice, 'storefront')).find((h) => h.kind === 'folder');
    expect(folder).toMatchObject({ kind: 'folder', id: 'folder:person:alice/data/clicks', path, file_count: 4, types: ['text/csv'], names: ['day-01', 'day-02', 'day-03'], description: 'Clickstream exports from the storefront' });
    // Another person does not see it.
    expect((await search(bob, 'storefront')).filter((h) => h.kind === 'folder')).toEqual([]);

    await env.service.describeFolder(alice, personLib('alice'), path, 'Weblog extracts');
    const sweepId = `sweep-${randomBytes(4).toString('hex')}`;
    await handle.client.workflow.execute('indexSweep', { workflowId: sweepId, taskQueue, args: sweep.args });
    expect((await search(alice, 'weblog')).find((h) => h.kind === 'folder')).toMatchObject({ description: 'Weblog extracts' });
    // indexSweep replays deterministically.
    const history = await handle.client.workflow.getHandle(sweepId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, sweepId)).resolves.toBeUndefined();
  });

  it('a replacement is re-indexed; delete removes the file from results at once', async () => {
    const file = await upload(alice, { file_name: 'animal-notes.txt', text: 'the lemur sleeps' });
    await indexed(file.id);
    expect(await ids(alice, 'lemur')).toContain(file.id);
    await env.service.replaceContent(alice, file.id, { body: body('the tapir swims'), origin: 'portal' });
    expect(await indexed(file.id)).toMatchObject({ status: 'indexed', version: 2 });
    expect(await ids(alice, 'lemur')).not.toContain(file.id);
    expect(await ids(alice, 'tapir')).toContain(file.id);
    // The same head indexed again records nothing.
    expect(await indexed(file.id)).toMatchObject({ status: 'unchanged', version: 2 });

    await env.service.delete(alice, file.id, { force: false });
    expect(await ids(alice, 'tapir')).not.toContain(file.id);
    expect(await ids(alice, 'animal notes')).not.toContain(file.id);
    expect((await env.db.query('SELECT 1 FROM resource_search_index WHERE resource_id = $1', [file.id])).rowCount).toBe(0);
    expect(await indexed(file.id)).toEqual({ status: 'gone', resourceId: file.id });
  });

  it('membership-scoped for everyone: an administrator does not find a private file; members find persona files', async () => {
    const mine = await upload(bob, { file_name: 'bob-diary.txt', description: 'quetzal sightings', text: 'private' });
    expect(await ids(bob, 'quetzal')).toContain(mine.id);
    expect(await ids(root, 'quetzal')).not.toContain(mine.id);
    expect(await ids(alice, 'quetzal')).not.toContain(mine.id);

    const { resource: shared } = await env.service.create(root, { library: personaLib('sales'), path: 'playbooks', file_name: 'pricing.md', description: 'wombat discount ladder', if_exists: 'fail', origin: 'portal', body: body('x') });
    const { resource: everyone } = await env.service.create(root, { library: globalLib, path: '', file_name: 'wombat-faq.md', if_exists: 'fail', origin: 'portal', body: body('x') });
    expect(await ids(sam, 'wombat')).toEqual(expect.arrayContaining([shared.id, everyone.id]));
    expect(await ids(fred, 'wombat')).toEqual([everyone.id]);
    // Administrators are not members of sales here: they find the global file only.
    expect(await ids(root, 'wombat')).toEqual([everyone.id]);
  });

  it('a move takes the indexed contents to the new library in its own transaction (before any re-index)', async () => {
    const file = await upload(root, { file_name: 'moving.txt', text: 'the axolotl regrows' });
    await indexed(file.id);
    expect(await ids(bob, 'axolotl')).not.toContain(file.id);
    await env.service.update(root, file.id, { library: globalLib });
    // No indexing ran since the move: the contents match is scoped by the library the move wrote.
    expect(await ids(bob, 'axolotl')).toContain(file.id);
    await env.service.update(root, file.id, { library: personLib(root.subject) });
    expect(await ids(bob, 'axolotl')).not.toContain(file.id);
    expect(await ids(root, 'axolotl')).toContain(file.id);
  });

  it('indexResource replays deterministically', async () => {
    const file = await upload(alice, { file_name: 'replay.txt', text: 'ibis' });
    await indexed(file.id);
    const history = await handle.client.workflow.getHandle(indexWorkflowId(file.id)).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, indexWorkflowId(file.id))).resolves.toBeUndefined();
  });
});
