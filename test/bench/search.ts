/**
 * Benchmark (a script, not a test) of search indexing and lexical search on the real resource
 * service, Postgres and MinIO (or the filesystem driver):
 *  1. indexing throughput: 10,000 generated resources (BENCH_FILES) — 60 % text, 20 % PDF, 20 %
 *     docx, words drawn from a 3,000-word vocabulary with a long tail — uploaded through the
 *     service, then indexed by the indexer's activity (`indexResource`: read from storage, extract,
 *     record), BENCH_CONCURRENCY at a time; files/s (Temporal's own scheduling is not included);
 *  2. lexical latency: 1,000 queries (BENCH_QUERIES) of one to three words taken from the files'
 *     contents and names, and misspelt names, through `searchLexical` for a caller whose scope is
 *     their own library and global; p50/p99 (goal: p99 ≤ 50 ms).
 *
 *   npx tsx test/bench/search.ts
 *   BENCH_DRIVER=filesystem BENCH_FILES=2000 npx tsx test/bench/search.ts
 */
import { Readable } from 'node:stream';
import { readableLibraries, type Library, type ResourceActor } from '../../shared/resources/index.js';
import { indexResource, searchLexical, type IndexerDeps } from '../../shared/search/index.js';
import { docx, docxType, pdf } from '../fixtures/search/documents.js';
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

interface Seeded {
  id: string;
  name: string;
  text: string;
}

async function main(): Promise<void> {
  const env = await startResourceEnv(driver);
  try {
    const admin = person(env, 'bench-admin', ['platform-admin']);
    const owners: ResourceActor[] = Array.from({ length: people }, (_, i) => person(env, `bench-${i}`));
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
    console.log(`uploaded ${files} files (${driver}) in ${((Date.now() - uploadStart) / 1000).toFixed(1)} s`);

    const deps: IndexerDeps = { config: env.config, db: env.db, resources: env.service, store: env.connections.get('main').store };
    const indexStart = process.hrtime.bigint();
    await pool(seeded, concurrency, async ({ id }) => {
      const outcome = await indexResource(deps, id);
      if (outcome.status !== 'indexed') throw new Error(`${id} was not indexed: ${JSON.stringify(outcome)}`);
    });
    const indexSeconds = Number(process.hrtime.bigint() - indexStart) / 1e9;
    console.log(`indexing: ${files} files in ${indexSeconds.toFixed(1)} s = ${(files / indexSeconds).toFixed(0)} files/s (concurrency ${concurrency})`);
    await env.db.query('ANALYZE');

    const caller = owners[1]!;
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
    // Warm-up: the first queries load the indexes.
    for (const q of texts.slice(0, 50)) await searchLexical(env.db, scope, q);
    const samples: number[] = [];
    let hits = 0;
    for (const q of texts) {
      const started = process.hrtime.bigint();
      const page = await searchLexical(env.db, scope, q, { limit: 10 });
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
      hits += page.hits.length;
    }
    console.log(
      `lexical search: ${queries} queries, p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms, ` +
        `max ${Math.max(...samples).toFixed(1)} ms (goal p99 <= 50 ms); ${(hits / queries).toFixed(1)} hits per query`,
    );
  } finally {
    await env.stop();
  }
}

await main();
