/**
 * scripts.fetch.allow_hosts names ports, not only hosts (docs/scripts.md, README configuration
 * reference): allowing 127.0.0.1 for one service must not reach every local one. platform.fetch's
 * own request path (scriptFetch) against two local services on one host: a bare host reaches only
 * its scheme's default port, `host:port` that port alone — also behind a redirect, which is checked
 * again before anything is sent — and `host:*` any port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptFetch } from '../../shared/scripts/runs/index.js';

interface Service {
  server: Server;
  port: number;
  hits: string[];
}

async function startService(name: string, redirectTo?: () => string): Promise<Service> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/redirect' && redirectTo) {
      response.writeHead(302, { location: redirectTo() }).end();
      return;
    }
    response.end(`hello from ${name}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

let web: Service;
let database: Service;

beforeAll(async () => {
  database = await startService('the other service');
  web = await startService('the allowed service', () => `http://127.0.0.1:${database.port}/secret`);
});
afterAll(async () => {
  for (const s of [web, database]) if (s) await new Promise((resolve) => s.server.close(resolve));
});

const fetchWith = (allowHosts: string[], url: string) => scriptFetch({ allowHosts, timeoutMs: 5_000, maxResponseBytes: 1024 }, url, undefined);

describe('platform.fetch allow-list ports', () => {
  it('a bare host reaches only its default port: another port of it is refused before anything is sent', async () => {
    const before = web.hits.length;
    await expect(fetchWith(['127.0.0.1'], `http://127.0.0.1:${web.port}/hello`)).rejects.toThrow(
      `platform.fetch: port ${web.port} of 127.0.0.1 is not on scripts.fetch.allow_hosts (a bare host allows only its scheme's default port; 127.0.0.1:${web.port} would allow this one)`,
    );
    expect(web.hits.length).toBe(before);
  });

  it('host:port reaches that port and no other, also behind a redirect', async () => {
    const allow = [`127.0.0.1:${web.port}`];
    expect(await fetchWith(allow, `http://127.0.0.1:${web.port}/hello`)).toMatchObject({ status: 200, body: 'hello from the allowed service' });
    await expect(fetchWith(allow, `http://127.0.0.1:${database.port}/secret`)).rejects.toThrow(/port \d+ of 127\.0\.0\.1 is not on scripts\.fetch\.allow_hosts/);
    await expect(fetchWith(allow, `http://127.0.0.1:${web.port}/redirect`)).rejects.toThrow(`port ${database.port} of 127.0.0.1 is not on scripts.fetch.allow_hosts`);
    expect(database.hits).toEqual([]);
  });

  it('each listed port is reachable, and host:* reaches any', async () => {
    expect((await fetchWith([`127.0.0.1:${web.port}`, `127.0.0.1:${database.port}`], `http://127.0.0.1:${web.port}/redirect`)).body).toBe('hello from the other service');
    expect((await fetchWith(['127.0.0.1:*'], `http://127.0.0.1:${database.port}/x`)).body).toBe('hello from the other service');
  });
});
