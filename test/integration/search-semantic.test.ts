/**
 * Semantic search (issue 18 item 4, "Embeddings when configured … hybrid ranking by reciprocal rank
 * fusion; without a provider, lexical only"), against the stand-in embedding server, real Postgres
 * with pgvector, and the real resource service and indexer: a query with no shared words finds the
 * semantically matching file; hybrid ranking on the labelled set; membership scoping and the
 * search settings hold for the semantic list too; vectors follow edits and deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { readableLibraries, resourceJobKinds, type ResourceActor } from '../../shared/resources/index.js';
import {
  createEmbedder,
  embedResource,
  indexResource,
  openEmbeddings,
  searchLexical,
  searchResources,
  unembeddedResources,
  type Embedder,
  type SearchHit,
} from '../../shared/search/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { temporalJobStarter, type PlatformWorker } from '../../worker/index.js';
import { indexWorkflowId, type IndexResourceInput } from '../../workflows/index.js';
import type { SearchIndexOutcome } from '../../activities/search.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js';
import { labelledDocuments, labelledQueries, recallAt } from '../fixtures/search/labelled.js';
import { body, person, personLib, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';
import { startSearchWorker } from './search-worker-fixtures.js';

const embeddingsConfig = (url: string, provider: 'openai' | 'ollama' = 'openai') =>
  parseConfig(`resources:\n  search:\n    embeddings:\n      provider: ${provider}\n      url: ${provider === 'openai' ? `${url}/v1` : url}\n      model: stand-in\n      api_key: sk-test-secret\n`, {}).config.resources.search.embeddings;

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, new Writable({ write: (chunk, _enc, done) => void (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }));
  return { log, lines };
}

describe('semantic search with the stand-in embedding server', () => {
  let env: ResourceEnv;
  let server: EmbeddingServer;
  let embedder: Embedder;
  let alice: ResourceActor;
  let bob: ResourceActor;
  const keyOf = new Map<string, string>();
  const now = () => new Date();

  async function indexAndEmbed(id: string): Promise<void> {
    await indexResource({ config: env.config, db: env.db, resources: env.service, store: env.connections.get('main').store }, id);
    await embedResource({ db: env.db, embedder }, id, now());
  }

  async function upload(actor: ResourceActor, file: { file_name: string; display_name?: string; description?: string; text: string; path?: string }) {
    const { resource } = await env.service.create(actor, {
      library: personLib(actor.subject),
      path: file.path ?? 'handbook',
      file_name: file.file_name,
      ...(file.display_name ? { display_name: file.display_name } : {}),
      ...(file.description ? { description: file.description } : {}),
      content_type: 'text/markdown',
      if_exists: 'fail',
      origin: 'portal',
      body: body(file.text),
    });
    await indexAndEmbed(resource.id);
    return resource;
  }

  const hybrid = async (actor: ResourceActor, query: string, limit = 10): Promise<SearchHit[]> =>
    (await searchResources({ db: env.db, embedder }, readableLibraries(actor), query, { limit })).hits;
  const lexical = async (actor: ResourceActor, query: string, limit = 10): Promise<SearchHit[]> =>
    (await searchLexical(env.db, readableLibraries(actor), query, { limit })).hits;
  const keys = (hits: SearchHit[]) => hits.map((h) => keyOf.get(h.id) ?? h.id);

  beforeAll(async () => {
    env = await startResourceEnv('filesystem');
    server = await startEmbeddingServer({ apiKey: 'sk-test-secret' });
    embedder = createEmbedder(embeddingsConfig(server.url))!;
    alice = person(env, 'alice');
    bob = person(env, 'bob');
    for (const doc of labelledDocuments) {
      const resource = await upload(alice, doc);
      keyOf.set(resource.id, doc.key);
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await env?.stop();
  });

  it('a query with no shared words finds the semantically matching file', async () => {
    expect(await lexical(alice, 'automobile maintenance')).toEqual([]);
    const hits = await hybrid(alice, 'automobile maintenance');
    expect(keys(hits)[0]).toBe('fleet');
    expect(hits[0]).toMatchObject({ kind: 'resource', title: 'Company car policy', reference: expect.stringMatching(/^mcp:resource:/) });
  });

  it('every labelled query sharing no word is missed lexically and found first by meaning', async () => {
    for (const q of labelledQueries.filter((l) => l.noSharedWords)) {
      expect(await lexical(alice, q.query), q.query).toEqual([]);
      expect(keys(await hybrid(alice, q.query)).slice(0, 1), q.query).toEqual(q.relevant.slice(0, 1));
    }
  });

  it('hybrid ranking on the labelled set: better recall than lexical, and what both find stays on top', async () => {
    let lexicalRecall = 0;
    let hybridRecall = 0;
    for (const q of labelledQueries) {
      lexicalRecall += recallAt(3, keys(await lexical(alice, q.query)), q.relevant);
      hybridRecall += recallAt(3, keys(await hybrid(alice, q.query)), q.relevant);
    }
    lexicalRecall /= labelledQueries.length;
    hybridRecall /= labelledQueries.length;
    expect(hybridRecall).toBe(1);
    expect(lexicalRecall).toBeLessThan(0.7);
    // A file both rankings put first stays first.
    expect(keys(await hybrid(alice, 'delivery of parcels'))[0]).toBe('couriers');
    // A lexical hit keeps its matching passage as snippet.
    expect((await hybrid(alice, 'delivery of parcels'))[0]!.snippet).toContain('Parcels');
  });

  it('pages the fused ranking without repeats', async () => {
    const first = await searchResources({ db: env.db, embedder }, readableLibraries(alice), 'staff leave', { limit: 5 });
    const second = await searchResources({ db: env.db, embedder }, readableLibraries(alice), 'staff leave', { limit: 5, offset: 5 });
    expect(first.more).toBe(true);
    expect(first.hits).toHaveLength(5);
    const ids = [...first.hits, ...second.hits].map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('membership-scoped: another person finds none of these files by meaning either', async () => {
    expect(await hybrid(bob, 'automobile maintenance')).toEqual([]);
    const own = await upload(bob, { file_name: 'bob-car.md', text: 'My vehicle needs new tyres.' });
    expect((await hybrid(bob, 'automobile maintenance')).map((h) => h.id)).toEqual([own.id]);
  });

  it('Not indexed leaves the semantic list at once, and indexing removes the vector', async () => {
    const file = await upload(alice, { file_name: 'kennel.md', display_name: 'Kennel rota', text: 'Hound walking rota for the office.' });
    expect((await hybrid(alice, 'canine')).map((h) => h.id)).toContain(file.id);
    await env.service.update(alice, file.id, { search_setting: 'not_indexed' });
    expect((await hybrid(alice, 'canine')).map((h) => h.id)).not.toContain(file.id);
    expect(await embedResource({ db: env.db, embedder }, file.id, now())).toEqual({ status: 'removed', resourceId: file.id });
    expect((await env.db.query('SELECT 1 FROM resource_embeddings WHERE resource_id = $1', [file.id])).rowCount).toBe(0);
  });

  it('Details only stops a match by contents before the file is embedded again', async () => {
    const file = await upload(alice, { file_name: 'misc-notes.md', display_name: 'Misc notes', text: 'Gasoline receipts go to accounting.' });
    expect((await hybrid(alice, 'petrol')).map((h) => h.id)).toContain(file.id);
    await env.service.update(alice, file.id, { search_setting: 'details_only' });
    expect((await hybrid(alice, 'petrol')).map((h) => h.id).slice(0, 2)).not.toContain(file.id);
  });

  it('a metadata edit re-embeds; the same text is not embedded twice; a delete removes the vector', async () => {
    const file = await upload(alice, { file_name: 'notes-42.md', display_name: 'Notes 42', text: 'Nothing much.' });
    const before = server.requests.length;
    expect(await embedResource({ db: env.db, embedder }, file.id, now())).toMatchObject({ status: 'unchanged' });
    expect(server.requests.length).toBe(before);
    await env.service.update(alice, file.id, { description: 'Physician appointments' });
    expect(await embedResource({ db: env.db, embedder }, file.id, now())).toMatchObject({ status: 'embedded' });
    expect((await hybrid(alice, 'doctor visits', 3)).map((h) => h.id)).toContain(file.id);
    await env.service.delete(alice, file.id, { force: false });
    expect((await env.db.query('SELECT 1 FROM resource_embeddings WHERE resource_id = $1', [file.id])).rowCount).toBe(0);
    expect(await embedResource({ db: env.db, embedder }, file.id, now())).toEqual({ status: 'gone', resourceId: file.id });
  });

  it('Ollama\'s /api/embed gives the same ranking', async () => {
    const ollama = createEmbedder(embeddingsConfig(server.url, 'ollama'))!;
    const hits = await searchResources({ db: env.db, embedder: ollama }, readableLibraries(alice), 'automobile maintenance', { limit: 3 });
    expect(keys(hits.hits)[0]).toBe('fleet');
    expect(server.requests.at(-1)).toMatchObject({ path: '/api/embed', model: 'stand-in' });
  });

  it('a provider that fails at query time: the page is answered lexically, and the failure logged without the key', async () => {
    const { log, lines } = capturingLogger();
    server.failNext(10, 503);
    const page = await searchResources({ db: env.db, embedder: createEmbedder({ ...embeddingsConfig(server.url), retries: 0 })!, log }, readableLibraries(alice), 'delivery of parcels', { limit: 5 });
    server.failNext(0, 503);
    expect(keys(page.hits)).toEqual(keys((await lexical(alice, 'delivery of parcels', 5))));
    expect(lines.some((l) => l.msg === 'semantic ranking failed; answering lexically')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('sk-test-secret');
  });

  it('startup says once which search is on: lexical without a provider or without pgvector, else semantic', async () => {
    const { log, lines } = capturingLogger();
    const none = parseConfig('{}', {}).config.resources.search.embeddings;
    expect(await openEmbeddings(none, env.db, log)).toBeUndefined();
    expect(await openEmbeddings(embeddingsConfig(server.url), env.db, log)).toMatchObject({ provider: 'openai', model: 'stand-in' });
    // A database where pgvector was missing when the migration ran has no vector table.
    await env.db.query('ALTER TABLE resource_embeddings RENAME TO resource_embeddings_away');
    try {
      expect(await openEmbeddings(embeddingsConfig(server.url), env.db, log)).toBeUndefined();
    } finally {
      await env.db.query('ALTER TABLE resource_embeddings_away RENAME TO resource_embeddings');
    }
    expect(lines.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^search is lexical only: no embedding provider/),
      expect.stringMatching(/^semantic search on/),
      expect.stringMatching(/^search is lexical only: the database has no pgvector/),
    ]);
    expect(JSON.stringify(lines)).not.toContain('sk-test-secret');
  });
});

describe('the indexResource workflow embeds what it indexes', () => {
  let temporal: TestTemporal;
  let handle: TemporalHandle;
  let env: ResourceEnv;
  let server: EmbeddingServer;
  let worker: PlatformWorker;
  let taskQueue: string;
  let embedder: Embedder;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
    env = await startResourceEnv('filesystem');
    server = await startEmbeddingServer({ apiKey: 'sk-test-secret' });
    // No retries inside the client: the activity's own (three attempts) are what the outage test waits through.
    embedder = createEmbedder({ ...embeddingsConfig(server.url), retries: 0 })!;
    ({ worker, taskQueue } = await startSearchWorker(env, temporal, handle, { queuePrefix: 'semantic', embedder }));
  }, 120_000);

  afterAll(async () => {
    await worker?.shutdown();
    await server?.close();
    await env?.stop();
    await handle?.close();
    await temporal?.stop();
  });

  it('an upload indexed through the workflow is found by meaning; a provider outage leaves it for the sweep', async () => {
    const alice = person(env, 'alice');
    // Started as the resource job dispatcher starts it (signal-with-start of the `index` kind).
    const indexed = async (id: string) => {
      const spec = resourceJobKinds.index;
      const request = { kind: 'index' as const, resourceId: id, params: {} };
      await temporalJobStarter(handle.client).start({ workflowType: spec.workflowType, workflowId: spec.workflowId(request), taskQueue: spec.taskQueue(taskQueue), args: spec.args(request), signal: spec.signal });
      return handle.client.workflow.getHandle<(input: IndexResourceInput) => Promise<SearchIndexOutcome>>(indexWorkflowId(id)).result();
    };
    const create = async (file_name: string, text: string) =>
      (await env.service.create(alice, { library: personLib('alice'), path: '', file_name, content_type: 'text/plain', if_exists: 'fail', origin: 'portal', body: body(text) })).resource;
    const file = await create('garage.txt', 'The vehicle goes to the garage for servicing in May.');
    expect(await indexed(file.id)).toMatchObject({ status: 'indexed' });
    const search = async (q: string) => (await searchResources({ db: env.db, embedder }, readableLibraries(alice), q, { limit: 3 })).hits.map((h) => h.id);
    expect(await lexicalIds(env, alice, 'automobile upkeep')).toEqual([]);
    expect(await search('automobile upkeep')).toEqual([file.id]);

    // The provider is down for every attempt: indexing still completes, the vector is missing, and the sweep starts the run again.
    server.failNext(1_000, 503);
    const later = await create('kennel.txt', 'Puppies are walked at noon.');
    try {
      expect(await indexed(later.id)).toMatchObject({ status: 'indexed' });
      expect(await unembeddedResources(env.db, embedder.model, 10)).toEqual([later.id]);
    } finally {
      server.failNext(0, 503);
    }
  }, 120_000);
});

async function lexicalIds(env: ResourceEnv, actor: ResourceActor, query: string): Promise<string[]> {
  return (await searchLexical(env.db, readableLibraries(actor), query, { limit: 10 })).hits.map((h) => h.id);
}
