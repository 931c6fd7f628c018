/**
 * Embeddings when configured (issue 18 item 4): the configuration (none by default, a provider
 * needs a model), the client of an OpenAI-compatible `/embeddings` and of Ollama's `/api/embed`
 * against the stand-in server (batches, order, retries, time limit, the key never in an error),
 * what a resource is embedded as, and reciprocal rank fusion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { createEmbedder, embeddingText, EmbeddingError, fuseRankings, MAX_EMBEDDED_CHARS, type EmbeddingsConfig } from '../../shared/search/index.js';
import { conceptVector, startEmbeddingServer, type EmbeddingServer } from '../support/embedding-server.js';

const configOf = (yaml: string): EmbeddingsConfig => parseConfig(`resources:\n  search:\n    embeddings:\n${yaml}`, {}).config.resources.search.embeddings;
const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('resources.search.embeddings', () => {
  it('is none by default: no embedder, search stays lexical', () => {
    const none = parseConfig('', {}).config.resources.search.embeddings;
    expect(none).toEqual({ provider: 'none', timeout: 30_000, batch: 32, retries: 2 });
    expect(createEmbedder(none)).toBeUndefined();
  });

  it('a provider needs the model', () => {
    expect(() => parseConfig('resources:\n  search:\n    embeddings:\n      provider: openai\n', {})).toThrow(/resources\.search\.embeddings\.model.*needs the embedding model/s);
  });

  it('takes the key from the environment and the provider\'s usual address when url is omitted', () => {
    const { config } = parseConfig('resources:\n  search:\n    embeddings:\n      provider: ollama\n      model: nomic-embed-text\n      api_key: ${EMBED_KEY}\n', { EMBED_KEY: 'k-1' });
    expect(config.resources.search.embeddings).toMatchObject({ provider: 'ollama', model: 'nomic-embed-text', api_key: 'k-1' });
  });
});

describe('the embedding client against the stand-in server', () => {
  let server: EmbeddingServer;
  const noWait = async () => undefined;

  beforeAll(async () => {
    server = await startEmbeddingServer({ apiKey: 'sk-secret-1' });
  });
  afterAll(async () => server?.close());

  const openai = (extra = '') => configOf(`      provider: openai\n      url: ${server.url}/v1\n      model: m-1\n      api_key: sk-secret-1\n${extra}`);

  it('OpenAI-compatible /embeddings: one vector per text, in order, in batches', async () => {
    const embedder = createEmbedder(openai('      batch: 2\n'), { sleep: noWait })!;
    const before = server.requests.length;
    const texts = ['car repair', 'automobile upkeep', 'office dogs', 'canine rules', 'tax'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toEqual(texts.map((t) => conceptVector(t)));
    expect(server.requests.slice(before).map((r) => [r.path, r.inputs, r.authorization])).toEqual([
      ['/v1/embeddings', 2, 'Bearer sk-secret-1'],
      ['/v1/embeddings', 2, 'Bearer sk-secret-1'],
      ['/v1/embeddings', 1, 'Bearer sk-secret-1'],
    ]);
    expect(cosine(vectors[0]!, vectors[1]!)).toBeGreaterThan(0.99);
    expect(cosine(vectors[0]!, vectors[2]!)).toBeLessThan(0.5);
  });

  it('asks for the configured dimensions', async () => {
    const [v] = await createEmbedder(openai('      dimensions: 64\n'))!.embed(['hello']);
    expect(v).toHaveLength(64);
  });

  it('Ollama /api/embed', async () => {
    const embedder = createEmbedder(configOf(`      provider: ollama\n      url: ${server.url}\n      model: nomic\n      api_key: sk-secret-1\n`))!;
    expect(await embedder.embed(['car'])).toEqual([conceptVector('car')]);
    expect(server.requests.at(-1)).toMatchObject({ path: '/api/embed', model: 'nomic' });
  });

  it('retries a 503 or 429 with a doubling delay, then gives up naming the attempts', async () => {
    const waits: number[] = [];
    const embedder = createEmbedder(openai('      retries: 2\n'), { sleep: async (ms) => void waits.push(ms) })!;
    server.failNext(2, 503);
    expect(await embedder.embed(['car'])).toEqual([conceptVector('car')]);
    expect(waits).toEqual([500, 1000]);
    server.failNext(3, 429);
    await expect(embedder.embed(['car'])).rejects.toThrow(/answered 429 \(after 3 attempts\)/);
  });

  it('does not retry a refusal, and never puts the key in the error', async () => {
    const wrongKey = createEmbedder({ ...openai(), api_key: 'sk-wrong-key' }, { sleep: noWait })!;
    const before = server.requests.length;
    const error = (await wrongKey.embed(['car']).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(EmbeddingError);
    expect(error.message).toMatch(/answered 401/);
    expect(error.message).not.toContain('sk-');
    expect(server.requests.length).toBe(before + 1);
  });

  it('gives up on a provider that does not answer within the time limit', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const embedder = createEmbedder(configOf(`      provider: ollama\n      url: http://127.0.0.1:${port}\n      model: m\n      timeout: 50ms\n      retries: 0\n`))!;
      await expect(embedder.embed(['car'])).rejects.toThrow(/no answer within 50 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses an answer with the wrong number of vectors', async () => {
    const embedder = createEmbedder(openai(), {
      fetch: async () => new Response(JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }] }), { status: 200 }),
    })!;
    await expect(embedder.embed(['a', 'b'])).rejects.toThrow(/1 vectors for 2 texts/);
  });
});

describe('embeddingText', () => {
  const base = { display_name: 'Fleet', file_name: 'fleet.md', tags: ['cars', 'hr'], description: 'Leasing', folder_path: 'policies', contents: 'The body.' };

  it('names, tags, description, folder, then the indexed contents', () => {
    expect(embeddingText({ ...base, mode: 'contents' })).toBe('Fleet\nfleet.md\nTags: cars, hr\nLeasing\nFolder: policies\nThe body.');
  });

  it('metadata only: no contents', () => {
    expect(embeddingText({ ...base, mode: 'metadata' })).toBe('Fleet\nfleet.md\nTags: cars, hr\nLeasing\nFolder: policies');
  });

  it('is bounded', () => {
    expect(embeddingText({ ...base, mode: 'contents', contents: 'x'.repeat(20_000) })).toHaveLength(MAX_EMBEDDED_CHARS);
  });
});

describe('fuseRankings (reciprocal rank fusion, k = 60)', () => {
  it('sums 1 / (k + rank) over the lists', () => {
    const fused = fuseRankings([
      ['a', 'b', 'c'],
      ['c', 'a', 'd'],
    ]);
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[3]!.score).toBeCloseTo(1 / 63, 12);
  });

  it('agreement beats one list\'s favourite', () => {
    expect(fuseRankings([['x', 'y'], ['z', 'y']])[0]!.id).toBe('y');
  });

  it('breaks ties by the better best rank, then by id; a repeat within a list counts once', () => {
    expect(fuseRankings([['b', 'a'], ['a', 'b']]).map((f) => f.id)).toEqual(['a', 'b']);
    expect(fuseRankings([['q', 'p']]).map((f) => f.id)).toEqual(['q', 'p']);
    expect(fuseRankings([['a', 'a', 'b']])).toEqual([
      { id: 'a', score: 1 / 61 },
      { id: 'b', score: 1 / 63 },
    ]);
  });

  it('takes k', () => {
    expect(fuseRankings([['a']], 0)).toEqual([{ id: 'a', score: 1 }]);
    expect(fuseRankings([])).toEqual([]);
  });
});
