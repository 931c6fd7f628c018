/**
 * The shared upstream HTTP helper (shared/http) the catalog client, the export tools and scripts'
 * platform.fetch read answers and follow redirects through, against a local server: the byte cap
 * (declared and streamed), redirects only under the caller's rule, and what a hop carries.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cappedChunks, fetchFollowing, readCappedText, type RedirectRule } from '../../shared/http/index.js';

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  apiKey: string | undefined;
  contentType: string | undefined;
  body: string;
}

async function startServer(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, apiKey: req.headers['x-api-key'] as string | undefined, contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Server = Awaited<ReturnType<typeof startServer>>;
let main: Server;
let other: Server;

beforeAll(async () => {
  other = await startServer((_req, res) => res.end('elsewhere'));
  main = await startServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const to = u.searchParams.get('to');
    if (u.pathname === '/redirect' && to) {
      res.writeHead(Number(u.searchParams.get('status') ?? 302), { location: to });
      return res.end();
    }
    if (u.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    if (u.pathname === '/declared') {
      res.writeHead(200, { 'content-length': '20' });
      return res.end('x'.repeat(20));
    }
    if (u.pathname === '/streamed') {
      res.write('x'.repeat(8));
      setImmediate(() => res.end('y'.repeat(8)));
      return;
    }
    res.end('ok');
  });
});
afterAll(async () => {
  await main.close();
  await other.close();
});

const tooLarge = () => new Error('too large');
const signal = () => AbortSignal.timeout(5000);
const sameOrigin = (from: Server): RedirectRule => ({
  max: 2,
  target(location, base) {
    const target = new URL(location, base);
    if (target.origin !== from.url) throw new Error(`refused ${target.origin}`);
    return target;
  },
  tooMany: () => new Error('too many'),
});
const anywhere: RedirectRule = { max: 5, target: (location, base) => new URL(location, base), tooMany: () => new Error('too many') };

describe('capped answers', () => {
  it('reads an answer within the limit; refuses a larger declared length before reading, and a longer stream as it arrives', async () => {
    const read = async (path: string, max: number) => readCappedText((await fetchFollowing({ url: new URL(`${main.url}${path}`), method: 'GET', signal: signal() })).response, max, tooLarge);
    expect(await read('/declared', 20)).toBe('x'.repeat(20));
    await expect(read('/declared', 19)).rejects.toThrow('too large');
    await expect(read('/streamed', 10)).rejects.toThrow('too large');
    expect(await read('/streamed', 16)).toBe(`${'x'.repeat(8)}${'y'.repeat(8)}`);
  });

  it('cappedChunks passes chunks through up to the limit and fails past it', async () => {
    async function* chunks() {
      yield new Uint8Array(3);
      yield new Uint8Array(3);
    }
    const seen: number[] = [];
    for await (const c of cappedChunks(chunks(), 6, tooLarge)) seen.push(c.byteLength);
    expect(seen).toEqual([3, 3]);
    const drain = async () => {
      for await (const c of cappedChunks(chunks(), 5, tooLarge)) expect(c.byteLength).toBe(3);
    };
    await expect(drain()).rejects.toThrow('too large');
  });
});

describe('redirects', () => {
  it('only 301, 302, 303, 307 and 308 redirect: a 300 or 304 with a Location is the answer', async () => {
    for (const status of [300, 304]) {
      const { response, url } = await fetchFollowing({ url: new URL(`${main.url}/redirect?status=${status}&to=%2Fnot-followed`), method: 'GET', signal: signal() }, anywhere);
      expect(response.status).toBe(status);
      expect(url.pathname).toBe('/redirect');
    }
    expect(main.seen.filter((s) => s.path === '/not-followed')).toEqual([]);
  });

  it('without a rule, a redirect is answered as it is and never followed', async () => {
    const { response, url } = await fetchFollowing({ url: new URL(`${main.url}/redirect?to=${encodeURIComponent(other.url)}`), method: 'GET', signal: signal() });
    expect(response.status).toBe(302);
    expect(url.pathname).toBe('/redirect');
    expect(other.seen).toEqual([]);
  });

  it("follows only where the caller's rule allows, and at most its max", async () => {
    const from = `${main.url}/redirect?to=${encodeURIComponent(`${other.url}/x`)}`;
    await expect(fetchFollowing({ url: new URL(from), method: 'GET', signal: signal() }, sameOrigin(main))).rejects.toThrow(`refused ${other.url}`);
    expect(other.seen).toEqual([]);
    await expect(fetchFollowing({ url: new URL(`${main.url}/loop`), method: 'GET', signal: signal() }, sameOrigin(main))).rejects.toThrow('too many');
    expect(main.seen.filter((s) => s.path === '/loop')).toHaveLength(3);
    const followed = await fetchFollowing({ url: new URL(`${main.url}/redirect?to=%2Fok`), method: 'GET', signal: signal() }, sameOrigin(main));
    expect({ status: followed.response.status, path: followed.url.pathname, text: await followed.response.text() }).toEqual({ status: 200, path: '/ok', text: 'ok' });
  });

  it('303, and 301/302 after a POST, continue as a GET without the body; 307 keeps both; credentials stay with their origin', async () => {
    const headers = new Headers({ authorization: 'Bearer secret', 'x-api-key': 'key-secret', 'content-type': 'text/plain' });
    const post = (status: number, to: string) =>
      fetchFollowing({ url: new URL(`${main.url}/redirect?status=${status}&to=${encodeURIComponent(to)}`), method: 'POST', headers, body: 'payload', signal: signal() }, anywhere);
    await post(303, '/after-303');
    await post(302, '/after-302');
    await post(307, '/after-307');
    const at = (path: string) => main.seen.find((s) => s.path === path);
    expect(at('/after-303')).toMatchObject({ method: 'GET', body: '', authorization: 'Bearer secret', contentType: undefined });
    expect(at('/after-302')).toMatchObject({ method: 'GET', body: '', contentType: undefined });
    expect(at('/after-307')).toMatchObject({ method: 'POST', body: 'payload', contentType: 'text/plain' });
    await post(307, `${other.url}/cross`);
    // To another origin go only headers that cannot be credentials: not a script's own x-api-key either.
    expect(other.seen.find((s) => s.path === '/cross')).toMatchObject({ method: 'POST', authorization: undefined, apiKey: undefined, contentType: 'text/plain' });
    expect(at('/after-307')).toMatchObject({ apiKey: 'key-secret' });
  });
});
