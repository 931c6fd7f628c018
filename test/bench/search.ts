/**
 * Benchmark (a script, not a test) of search over managed resources (issue 18), on the real
 * resource service, Postgres (with pgvector) and the filesystem object store:
 *  1. indexing throughput: 10,000 generated resources (about 70% Markdown, 15% PDF, 15% docx)
 *     created through the service, then indexed by the indexResource activity (read, extract,
 *     record; BENCH_CONCURRENCY at a time, no Temporal), in files/s; then embedded by the
 *     embedResource activity against the stand-in embedding server, in files/s;
 *  2. 1,000 queries (generated words, synonyms, and the labelled queries) as one person:
 *     p50/p99 latency of the lexical search (goal p99 <= 50 ms), of the semantic ranking alone and
 *     of the hybrid one (lexical + semantic, fused; includes the stand-in provider's round trip);
 *  3. recall@10 of lexical vs hybrid on the labelled set of test/fixtures/search/labelled.ts,
 *     filed among the 10,000 generated files.
 *
 *   npm run bench:search
 *   BENCH_RESOURCES=2000 BENCH_QUERIES=300 BENCH_CONCURRENCY=4 npx tsx test/bench/search.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseConfig } from '../../shared/config/index.js';
import { createPool, migrate } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, readableLibraries, resourceActor, type CreateInput, type Library } from '../../shared/resources/index.js';
import { createEmbedder, embedResource, indexResource, searchLexical, searchResources, semanticRanking } from '../../shared/search/index.js';
import { startEmbeddingServer, synonymGroups } from '../support/embedding-server.js';
import { createTestDatabase } from '../support/postgres.js';
import { docx, docxType, pdf } from '../fixtures/search/documents.js';
import { labelledDocuments, labelledQueries, recallAt } from '../fixtures/search/labelled.js';

const resourceCount = Number(process.env.BENCH_RESOURCES ?? 10_000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 1_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);

/** Deterministic pseudo-random numbers (mulberry32), so every run files the same corpus. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(18);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** 2,000 made-up words (consonant-vowel syllables); bodies also use the synonym table's words, sparsely (1 in 50). */
const syllables = ['ba', 'ke', 'lo', 'mi', 'nu', 'ra', 'se', 'ti', 'vo', 'za', 'pe', 'du', 'go', 'fi', 'ha', 'jo', 'ly', 'qu', 'wi', 'xe'];
const vocabulary = [...new Set(Array.from({ length: 2_600 }, () => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join('')))].slice(0, 2_000);
const topicWords = synonymGroups.flat();

function sentence(words: number, topicRate = 0): string {
  return Array.from({ length: words }, () => (random() < topicRate ? pick(topicWords) : pick(vocabulary))).join(' ');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function inBatches<T>(items: readonly T[], parallel: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

async function main() {
  const database = await createTestDatabase();
  const root = await mkdtemp(join(tmpdir(), 'bench-search-'));
  const server = await startEmbeddingServer();
  const yaml = `database:\n  dsn: ${JSON.stringify(database.dsn)}\ntoolkits:\n  objstore:\n    main:\n      driver: filesystem\n      root: ${JSON.stringify(root)}\npersonas:\n  definitions:\n    sales:\n      roles: [sales]\n    admin:\n      roles: [platform-admin]\n`;
  const { config } = parseConfig(yaml, {});
  const db = createPool({ dsn: database.dsn, maxOpenConns: concurrency + 4 });
  const connections = createObjstoreConnections(config, { env: {} });
  try {
    await migrate(db, { log: silentLogger() });
    if (!(await db.query(`SELECT to_regclass('resource_embeddings') IS NOT NULL AS ok`)).rows[0].ok) throw new Error('this database has no pgvector: the hybrid figures need it');
    const service = createResourceService({ config, db, objstore: connections, log: silentLogger() });
    const store = connections.get('main').store;
    const embedder = createEmbedder(parseConfig(`resources:\n  search:\n    embeddings:\n      provider: openai\n      url: ${server.url}/v1\n      model: stand-in\n`, {}).config.resources.search.embeddings)!;
    const alice = resourceActor({ subject: 'alice', roles: ['sales'], authType: 'apikey' }, { config, origin: 'person' });
    /** Files everyone's: a platform administrator writes them into every library. */
    const root = resourceActor({ subject: 'root', roles: ['platform-admin'], authType: 'apikey' }, { config, origin: 'person' });
    // Alice reads three of the four libraries: her own, the sales persona's and the global one.
    const libraries: Library[] = [{ kind: 'person', subject: 'alice' }, { kind: 'persona', name: 'sales' }, { kind: 'global' }, { kind: 'person', subject: 'bob' }];

    // 1. the corpus: generated files, with the labelled set filed among them
    type Spec = Omit<CreateInput, 'body' | 'origin' | 'if_exists'> & { bytes: () => Promise<Buffer> };
    const specs: Spec[] = Array.from({ length: resourceCount }, (_, i) => {
      const roll = random();
      const title = sentence(3);
      const text = Array.from({ length: 6 }, () => sentence(12, 0.02)).join('. ');
      const kind = roll < 0.7 ? 'md' : roll < 0.85 ? 'pdf' : 'docx';
      return {
        library: libraries[i % libraries.length]!,
        path: `area-${i % 40}/batch-${i % 7}`,
        file_name: `${title.replace(/ /g, '-')}-${i}.${kind}`,
        display_name: title,
        description: random() < 0.5 ? sentence(8) : '',
        content_type: kind === 'md' ? 'text/markdown' : kind === 'pdf' ? 'application/pdf' : docxType,
        bytes: async () => (kind === 'md' ? Buffer.from(text) : kind === 'pdf' ? pdf(text.match(/.{1,80}(\s|$)/g) ?? [text]) : docx(text.split('. '))),
      };
    });
    labelledDocuments.forEach((doc, i) => {
      specs.splice(Math.floor((i + 0.5) * (specs.length / labelledDocuments.length)), 0, {
        library: libraries[0]!,
        path: 'handbook',
        file_name: doc.file_name,
        display_name: doc.display_name,
        description: doc.description,
        content_type: 'text/markdown',
        bytes: async () => Buffer.from(doc.text),
      });
    });
    const ids: string[] = new Array<string>(specs.length);
    const keyOf = new Map<string, string>();
    const labelledName = new Map(labelledDocuments.map((d) => [d.file_name, d.key]));
    let t0 = performance.now();
    await inBatches(specs, concurrency, async (spec, i) => {
      const { bytes, ...input } = spec;
      const { resource } = await service.create(root, { ...input, if_exists: 'fail', origin: 'portal', body: Readable.from([await bytes()]) });
      ids[i] = resource.id;
      const key = labelledName.get(spec.file_name);
      if (key && spec.path === 'handbook') keyOf.set(resource.id, key);
    });
    const createdPerSecond = specs.length / ((performance.now() - t0) / 1000);

    const deps = { config, db, resources: service, store };
    t0 = performance.now();
    await inBatches(ids, concurrency, async (id) => {
      const outcome = await indexResource(deps, id);
      if (outcome.status !== 'indexed') throw new Error(`${id}: ${JSON.stringify(outcome)}`);
    });
    const indexSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    await inBatches(ids, concurrency, async (id) => {
      const outcome = await embedResource({ db, embedder }, id, new Date());
      if (outcome.status !== 'embedded') throw new Error(`${id}: ${JSON.stringify(outcome)}`);
    });
    const embedSeconds = (performance.now() - t0) / 1000;
    await db.query('ANALYZE');

    console.log(`corpus: ${specs.length} resources (${resourceCount} generated: ~70% Markdown, 15% PDF, 15% docx; + ${labelledDocuments.length} labelled), ${concurrency} at a time`);
    console.log(`  created through the service  ${createdPerSecond.toFixed(0)} files/s`);
    console.log(`  indexed (indexResource)      ${(specs.length / indexSeconds).toFixed(0)} files/s  (${indexSeconds.toFixed(1)} s)`);
    console.log(`  embedded (embedResource)     ${(specs.length / embedSeconds).toFixed(0)} files/s  (${embedSeconds.toFixed(1)} s, stand-in provider)`);

    // 2. query latency
    const scope = readableLibraries(alice);
    const queries = Array.from({ length: queryCount }, (_, i) => {
      const roll = i % 10;
      if (roll < 5) return Array.from({ length: 1 + (i % 3) }, () => pick(vocabulary)).join(' ');
      if (roll < 8) return `${pick(topicWords)} ${pick(topicWords)}`;
      return labelledQueries[i % labelledQueries.length]!.query;
    });
    const time = async (run: (q: string) => Promise<unknown>) => {
      for (const q of queries.slice(0, 50)) await run(q); // warm-up
      const took: number[] = [];
      for (const q of queries) {
        const s = performance.now();
        await run(q);
        took.push(performance.now() - s);
      }
      return took.sort((a, b) => a - b);
    };
    const lexicalTimes = await time((q) => searchLexical(db, scope, q, { limit: 10 }));
    const semanticTimes = await time((q) => semanticRanking(db, embedder, scope, q, 11));
    const hybridTimes = await time((q) => searchResources({ db, embedder }, scope, q, { limit: 10 }));
    const readable = specs.filter((s) => !(s.library.kind === 'person' && s.library.subject === 'bob')).length;
    console.log(`${queryCount} queries (limit 10) as a person who may read ${readable} of the ${specs.length} files`);
    console.log(`  lexical  p50 ${ms(percentile(lexicalTimes, 0.5))}  p99 ${ms(percentile(lexicalTimes, 0.99))}  (goal p99 <= 50 ms: ${percentile(lexicalTimes, 0.99) <= 50 ? 'met' : 'missed'})`);
    console.log(`  semantic p50 ${ms(percentile(semanticTimes, 0.5))}  p99 ${ms(percentile(semanticTimes, 0.99))}  (the query's embedding and the nearest 11 vectors alone)`);
    console.log(`  hybrid   p50 ${ms(percentile(hybridTimes, 0.5))}  p99 ${ms(percentile(hybridTimes, 0.99))}  (ratio p50 hybrid / lexical ${(percentile(hybridTimes, 0.5) / percentile(lexicalTimes, 0.5)).toFixed(2)})`);

    // 3. recall@10 on the labelled set
    let lexicalRecall = 0;
    let hybridRecall = 0;
    for (const q of labelledQueries) {
      const keys = (hits: { id: string }[]) => hits.map((h) => keyOf.get(h.id) ?? h.id);
      lexicalRecall += recallAt(10, keys((await searchLexical(db, scope, q.query, { limit: 10 })).hits), q.relevant);
      hybridRecall += recallAt(10, keys((await searchResources({ db, embedder }, scope, q.query, { limit: 10 })).hits), q.relevant);
    }
    console.log(`recall@10 on the labelled set (${labelledQueries.length} queries, ${labelledQueries.filter((q) => q.noSharedWords).length} sharing no word with their documents)`);
    console.log(`  lexical ${(lexicalRecall / labelledQueries.length).toFixed(2)}   hybrid ${(hybridRecall / labelledQueries.length).toFixed(2)}`);
  } finally {
    await connections.close();
    await db.end();
    await server.close();
    await database.drop();
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
