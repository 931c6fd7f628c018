/**
 * A client of an embedding provider (resources.search.embeddings): an OpenAI-compatible
 * `POST {url}/embeddings` or Ollama's `POST {url}/api/embed`. Texts go in batches of `batch`; each
 * request has the configured time limit and is retried after a network error, 429 or 5xx with a
 * doubling delay. The API key is sent only in the Authorization header and never appears in an
 * error or a log line.
 */
import { reconnectDelay } from '../../db/index.js';
import type { PlatformConfig } from '../../config/index.js';

export type EmbeddingsConfig = PlatformConfig['resources']['search']['embeddings'];

export interface Embedder {
  readonly provider: 'openai' | 'ollama';
  /** The model's name, stored with every vector: vectors of different models are never compared. */
  readonly model: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

export class EmbeddingError extends Error {}

export interface EmbedderDeps {
  fetch?: typeof fetch;
  /** Waits between attempts (tests pass one that returns at once). */
  sleep?: (ms: number) => Promise<void>;
}

/** Where each provider answers when `url` is not set. */
const defaultUrls = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;

const retryBackoff = { initialMs: 500, maxMs: 8_000 };

/** The embedder of the configuration, or undefined with provider none. */
export function createEmbedder(config: EmbeddingsConfig, deps: EmbedderDeps = {}): Embedder | undefined {
  if (config.provider === 'none' || config.model === undefined) return undefined;
  const provider = config.provider;
  const model = config.model;
  const base = (config.url ?? defaultUrls[provider]).replace(/\/+$/, '');
  const endpoint = provider === 'openai' ? `${base}/embeddings` : `${base}/api/embed`;
  const doFetch = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(config.api_key ? { authorization: `Bearer ${config.api_key}` } : {}) };

  async function request(input: readonly string[]): Promise<number[][]> {
    const body = JSON.stringify({ model, input, ...(config.dimensions !== undefined ? { dimensions: config.dimensions } : {}) });
    for (let attempt = 0; ; attempt++) {
      let failure: string;
      try {
        const response = await doFetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(config.timeout) });
        if (response.ok) return vectorsOf(provider, await response.json(), input.length);
        // The body may echo what we sent; only the status is kept.
        await response.body?.cancel();
        failure = `${endpoint} answered ${response.status}`;
        if (response.status !== 429 && response.status < 500) throw new EmbeddingError(failure);
      } catch (error) {
        if (error instanceof EmbeddingError) throw error;
        failure = `${endpoint} failed: ${(error as Error).name === 'TimeoutError' ? `no answer within ${config.timeout} ms` : (error as Error).message}`;
      }
      if (attempt >= config.retries) throw new EmbeddingError(`${failure} (after ${attempt + 1} attempts)`);
      await sleep(reconnectDelay(attempt, retryBackoff));
    }
  }

  return {
    provider,
    model,
    async embed(texts) {
      const vectors: number[][] = [];
      for (let i = 0; i < texts.length; i += config.batch) vectors.push(...(await request(texts.slice(i, i + config.batch))));
      return vectors;
    },
  };
}

/** The vectors of a provider's answer, checked: one per input, every one of the same length, finite numbers. */
function vectorsOf(provider: 'openai' | 'ollama', body: unknown, count: number): number[][] {
  const vectors =
    provider === 'openai'
      ? openAiVectors(body)
      : (body as { embeddings?: unknown }).embeddings;
  if (!Array.isArray(vectors) || vectors.length !== count) throw new EmbeddingError(`the provider answered ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} texts`);
  const length = (vectors[0] as unknown[] | undefined)?.length ?? 0;
  for (const v of vectors) {
    if (!Array.isArray(v) || v.length === 0 || v.length !== length || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new EmbeddingError('the provider answered a malformed vector');
    }
  }
  return vectors as number[][];
}

/** OpenAI's `{data: [{index, embedding}]}`, put back in input order. */
function openAiVectors(body: unknown): unknown[] | undefined {
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return undefined;
  const ordered = [...(data as { index?: number; embedding?: unknown }[])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  return ordered.map((d) => d.embedding);
}
