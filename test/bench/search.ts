/**
 * Benchmark (a script, not a test) of search over managed resources (issue 18) on the real
 * resource service, Postgres (with pgvector) and MinIO (or the filesystem driver):
 *  1. indexing throughput: 10,000 generated resources (BENCH_FILES) — 60 % text, 20 % PDF, 20 %
 *     docx, words drawn from a 3,000-word vocabulary with a long tail — uploaded through the
 *     service, then indexed by the indexer's activity (`indexResource`: read from storage, extract,
 *     record), BENCH_CONCURRENCY at a time; files/s (Temporal's own scheduling is not included);
 *     then embedded by `embedResource` against the stand-in embedding server
 *     (test/support/embedding-server.ts); files/s;
 *  2. latency: 1,000 queries (BENCH_QUERIES) of one to three words taken from the files' contents
 *     and names, and misspelt names, for a caller whose scope is their own library and global;
 *     p50/p99 of `searchLexical` (goal: p99 ≤ 50 ms), of the semantic ranking alone (the query's
 *     embedding and the nearest vectors) and of the hybrid search (both, fused);
 *  3. recall@10 of lexical vs hybrid on the labelled set (test/fixtures/search/labelled.ts), whose
 *     documents are filed in the caller's library among the generated ones.
 *
 *   npm run bench:search
 *   BENCH_DRIVER=filesystem BENCH_FILES=2000 npx tsx test/bench/search.ts
 */
import { Readable } from 'node:stream';
import { parseConfig } from '../../shared/config/index.js';
import { readableLibraries, type Library, type ResourceActor } from '../../shared/resources/index.js';
import { createEmbedder, embedResource, indexResource, searchLexical, searchResources, semanticRanking, type IndexerDeps } from '../../shared/search/index.js';
import { startEmbeddingServer } from '../support/embedding-server.js';
import { docx, docxType, pdf } from '../fixtures/search/documents.js';
import { labelledDocuments, labelledQueries, recallAt } from '../fixtures/search/labelled.js';
import { person, startResourceEnv } from '../integration/resources-core-fixtures.js';

const driver = process.env.BENCH_DRIVER === 'filesystem' ? 'filesystem' : 's3';
const files = Number(process.env.BENCH_FILES ?? 10_000);
const queries = Number(process.env.BENCH_QUERIES ?? 1_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const people = 10;

/** Deterministic pseudo-random numbers (the same corpus every run). */
let state = 20_260_101;
function random(): number {
  state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
  return state / 2 ** 31;
}

const syllables = ['ka', 'lo', 'mi', 'ren', 'ta', 'vos', 'qui', 'dar', 'nel', 'por', 'sul', 'te', 'bra', 'fin', 'gor', 'hul', 'ix', 'jam', 'zed', 'wen'];
const vocabulary = Array.from({ length: 3000 }, (_, i) => {
  let word = '';
  let n = i + 401;
  while (n > 0) {
    word += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  }
  return word;
});
/** A long tail: a few words are everywhere, most are rare. */
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2.5)]!;
const words = (n: number) => Array.from({ length: n }, word).join(' ');

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function pool<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

/** p50/p99/max of `run` over the query texts, after a warm-up that loads the indexes. */
async function latency(texts: readonly string[], run: (q: string) => Promise<unknown>): Promise<string> {
  for (const q of texts.slice(0, 50)) await run(q);
  const samples: number[] = [];
  for (const q of texts) {
    const started = process.hrtime.bigint();
    await run(q);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return `p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms`;
}

interface Seeded {
  id: string;
  name: string;
  text: string;
}

async function main(): Promise<void> {
  const env = await startResourceEnv(driver);
  const server = await startEmbeddingServer();
  try {
    if (!(await env.db.query<{ ok: boolean }>(`SELECT to_regclass('resource_embeddings') IS NOT NULL AS ok`)).rows[0]?.ok) {
      throw new Error('this database has no pgvector (migrations/0022): the semantic figures need it');
    }
    const embeddings = parseConfig(`resources:\n  search:\n    embeddings:\n      provider: openai\n      url: ${server.url}/v1\n      model: stand-in\n`, {}).config.resources.search.embeddings;
    const embedder = createEmbedder(embeddings)!;
    const admin = person(env, 'bench-admin', ['platform-admin']);
    const owners: ResourceActor[] = Array.from({ length: people }, (_, i) => person(env, `bench-${i}`));
    const caller = owners[1]!;
    const plan = Array.from({ length: files }, (_, n) => ({ n, name: words(2), description: words(8), text: words(200 + Math.floor(random() * 600)) }));

    const seeded: Seeded[] = [];
    const uploadStart = Date.now();
    await pool(plan, concurrency, async ({ n, name, description, text }) => {
      const kind = n % 5 === 3 ? 'pdf' : n % 5 === 4 ? 'docx' : 'text';
      const owner = n % 10 < 7 ? undefined : owners[n % people]!;
      const library: Library = owner ? { kind: 'person', subject: owner.subject } : { kind: 'global' };
      const bytes = kind === 'pdf' ? pdf(text.match(/(?:\S+\s*){1,12}/g) ?? [text]) : kind === 'docx' ? await docx([text]) : Buffer.from(text);
      const { resource } = await env.service.create(owner ?? admin, {
        library,
        path: `folder-${n % 40}`,
        file_name: `${name.replace(/ /g, '-')}-${n}.${kind === 'text' ? 'md' : kind}`,
        description,
        content_type: kind === 'pdf' ? 'application/pdf' : kind === 'docx' ? docxType : 'text/markdown',
        if_exists: 'fail',
        origin: 'portal',
        body: Readable.from([bytes]),
      });
      seeded.push({ id: resource.id, name, text });
    });
    // The labelled set, in the caller's own library among the generated files.
    const keyOf = new Map<string, string>();
    for (const doc of labelledDocuments) {
      const { resource } = await env.service.create(caller, {
        library: { kind: 'person', subject: caller.subject },
        path: 'handbook',
        file_name: doc.file_name,
        display_name: doc.display_name,
        description: doc.description,
        content_type: 'text/markdown',
        if_exists: 'fail',
        origin: 'portal',
        body: Readable.from([Buffer.from(doc.text)]),
      });
      keyOf.set(resource.id, doc.key);
    }
    const ids = [...seeded.map((s) => s.id), ...keyOf.keys()];
    console.log(`uploaded ${ids.length} files (${files} generated + ${labelledDocuments.length} labelled; ${driver}) in ${((Date.now() - uploadStart) / 1000).toFixed(1)} s`);

    const deps: IndexerDeps = { config: env.config, db: env.db, resources: env.service, store: env.connections.get('main').store };
    const indexStart = process.hrtime.bigint();
    await pool(ids, concurrency, async (id) => {
      const outcome = await indexResource(deps, id);
      if (outcome.status !== 'indexed') throw new Error(`${id} was not indexed: ${JSON.stringify(outcome)}`);
    });
    const indexSeconds = Number(process.hrtime.bigint() - indexStart) / 1e9;
    console.log(`indexing: ${ids.length} files in ${indexSeconds.toFixed(1)} s = ${(ids.length / indexSeconds).toFixed(0)} files/s (concurrency ${concurrency})`);
    const embedStart = process.hrtime.bigint();
    await pool(ids, concurrency, async (id) => {
      const outcome = await embedResource({ db: env.db, embedder }, id, new Date());
      if (outcome.status !== 'embedded') throw new Error(`${id} was not embedded: ${JSON.stringify(outcome)}`);
    });
    const embedSeconds = Number(process.hrtime.bigint() - embedStart) / 1e9;
    console.log(`embedding: ${ids.length} files in ${embedSeconds.toFixed(1)} s = ${(ids.length / embedSeconds).toFixed(0)} files/s (stand-in provider, concurrency ${concurrency})`);
    await env.db.query('ANALYZE');

    const scope = readableLibraries(caller);
    const misspelt = (w: string) => (w.length > 4 ? w.slice(0, 2) + w.slice(3) : w);
    const texts = Array.from({ length: queries }, (_, i) => {
      const doc = seeded[Math.floor(random() * seeded.length)]!;
      const inDoc = doc.text.split(' ');
      const from = Math.floor(random() * (inDoc.length - 3));
      switch (i % 5) {
        case 0:
          return inDoc[from]!;
        case 1:
          return inDoc.slice(from, from + 2).join(' ');
        case 2:
          return inDoc.slice(from, from + 3).join(' ');
        case 3:
          return doc.name;
        default:
          return misspelt(doc.name.split(' ')[0]!);
      }
    });
    let hits = 0;
    const lexical = await latency(texts, async (q) => void (hits += (await searchLexical(env.db, scope, q, { limit: 10 })).hits.length));
    console.log(`lexical search: ${queries} queries, ${lexical} (goal p99 <= 50 ms); ${(hits / (queries + 50)).toFixed(1)} hits per query`);
    console.log(`semantic ranking alone: ${await latency(texts, (q) => semanticRanking(env.db, embedder, scope, q, 11))}`);
    console.log(`hybrid search: ${await latency(texts, (q) => searchResources({ db: env.db, embedder }, scope, q, { limit: 10 }))}`);

    let lexicalRecall = 0;
    let hybridRecall = 0;
    const keys = (found: { id: string }[]) => found.map((h) => keyOf.get(h.id) ?? h.id);
    for (const q of labelledQueries) {
      lexicalRecall += recallAt(10, keys((await searchLexical(env.db, scope, q.query, { limit: 10 })).hits), q.relevant);
      hybridRecall += recallAt(10, keys((await searchResources({ db: env.db, embedder }, scope, q.query, { limit: 10 })).hits), q.relevant);
    }
    const sharing = labelledQueries.filter((q) => q.noSharedWords).length;
    console.log(
      `recall@10 on the labelled set (${labelledQueries.length} queries, ${sharing} sharing no word with their documents): ` +
        `lexical ${(lexicalRecall / labelledQueries.length).toFixed(2)}, hybrid ${(hybridRecall / labelledQueries.length).toFixed(2)}`,
    );
  } finally {
    await server.close();
    await env.stop();
  }
}

await main();
