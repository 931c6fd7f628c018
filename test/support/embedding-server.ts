/**
 * A stand-in embedding provider for tests and the search benchmark: a real HTTP server on a random
 * loopback port answering the OpenAI-compatible `POST /v1/embeddings` and Ollama's `POST /api/embed`
 * as those APIs do, with deterministic vectors. A text's vector is a bag of concepts: each word is
 * lower-cased, singularised and mapped through a small synonym table ("automobile" and "car" are
 * one concept), then hashed to a signed dimension; the sum is L2-normalised. So texts sharing
 * concepts are near each other even when they share no word — what a real model gives, minus the
 * model.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Words meaning one thing; the first names the concept. */
export const synonymGroups: readonly (readonly string[])[] = [
  ['car', 'automobile', 'vehicle', 'auto', 'motorcar', 'fleet'],
  ['budget', 'spending', 'expenditure', 'cost', 'expense', 'outlay'],
  ['revenue', 'income', 'sale', 'earning', 'turnover'],
  ['employee', 'staff', 'personnel', 'workforce', 'worker', 'colleague'],
  ['vacation', 'holiday', 'leave', 'pto', 'time-off'],
  ['travel', 'trip', 'journey', 'flight'],
  ['doctor', 'physician', 'clinician', 'medic'],
  ['contract', 'agreement', 'covenant'],
  ['lawyer', 'attorney', 'counsel', 'solicitor'],
  ['customer', 'client', 'buyer', 'patron'],
  ['complaint', 'grievance', 'objection'],
  ['hiring', 'recruitment', 'recruiting', 'hire', 'onboarding'],
  ['password', 'credential', 'passphrase', 'login'],
  ['laptop', 'notebook', 'computer', 'workstation'],
  ['invoice', 'bill', 'billing'],
  ['shipping', 'delivery', 'freight', 'logistic', 'courier'],
  ['forecast', 'projection', 'outlook', 'prediction'],
  ['meeting', 'conference', 'standup', 'gathering'],
  ['salary', 'pay', 'compensation', 'wage', 'payroll'],
  ['house', 'home', 'housing', 'residence', 'dwelling'],
  ['insurance', 'coverage', 'underwriting'],
  ['repair', 'maintenance', 'upkeep', 'servicing', 'fix'],
  ['fuel', 'petrol', 'gasoline', 'diesel'],
  ['dog', 'canine', 'puppy', 'hound'],
  ['illness', 'sickness', 'disease', 'sick'],
  ['tax', 'taxation', 'levy', 'vat'],
  ['marketing', 'advertising', 'promotion', 'campaign'],
  ['office', 'workplace', 'premise', 'headquarter'],
];

const stopWords = new Set('a an and are as at be by for from has have in into is it its of on or our the their this to was we were will with your you'.split(' '));

const conceptOf = new Map<string, string>(synonymGroups.flatMap((group) => group.map((word) => [word, group[0]!] as [string, string])));

function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** The concepts of a text: its words, singular, synonyms folded, stop words left out. */
export function concepts(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+(?:-[a-z0-9]+)*/g) ?? [])
    .filter((w) => !stopWords.has(w))
    .map((w) => conceptOf.get(w) ?? conceptOf.get(singular(w)) ?? singular(w));
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const DEFAULT_DIMENSIONS = 256;

/** The deterministic vector of a text (all zeros but one small component when it has no concept). */
export function conceptVector(text: string, dimensions = DEFAULT_DIMENSIONS): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const concept of concepts(text)) {
    const h = fnv1a(concept);
    v[h % dimensions]! += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

export interface EmbeddingServer {
  /** `http://127.0.0.1:<port>`: Ollama's base URL; OpenAI's is `${url}/v1`. */
  url: string;
  /** Well-formed requests received (refused ones too), in order. */
  requests: { path: string; model: string; inputs: number; authorization: string | undefined }[];
  /** The next `count` requests answer `status` (a provider outage). */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

export async function startEmbeddingServer(opts: { apiKey?: string } = {}): Promise<EmbeddingServer> {
  const requests: EmbeddingServer['requests'] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'POST' || (path !== '/v1/embeddings' && path !== '/api/embed')) return reply(404, { error: 'not found' });
    let body: { model?: unknown; input?: unknown; dimensions?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return reply(400, { error: 'invalid JSON' });
    }
    const inputs = typeof body.input === 'string' ? [body.input] : body.input;
    if (typeof body.model !== 'string' || !Array.isArray(inputs) || !inputs.every((i) => typeof i === 'string')) {
      return reply(400, { error: 'model (string) and input (string or array of strings) are required' });
    }
    requests.push({ path, model: body.model, inputs: inputs.length, authorization: req.headers.authorization });
    if (opts.apiKey !== undefined && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return reply(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    }
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 };
      return reply(failures.status, { error: 'unavailable' });
    }
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : DEFAULT_DIMENSIONS;
    const vectors = (inputs as string[]).map((text) => conceptVector(text, dimensions));
    if (path === '/v1/embeddings') {
      const tokens = (inputs as string[]).reduce((n, t) => n + concepts(t).length, 0);
      return reply(200, {
        object: 'list',
        data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
        model: body.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
    }
    return reply(200, { model: body.model, embeddings: vectors, total_duration: 0, load_duration: 0, prompt_eval_count: vectors.length });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(count, status) {
      failures = { count, status };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
