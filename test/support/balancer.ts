/**
 * A load balancer in front of two api replicas: every request to its URL goes to the replica that
 * `choose(path)` names (0 or 1), body and headers passed through, and `served` records where each
 * path went. The replicas' public URL (oauth.issuer) is this one, as behind a real balancer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  setTargets(targets: readonly [string, string]): void;
  served: { path: string; replica: number }[];
  close(): Promise<void>;
}

export async function startBalancer(choose: (path: string) => 0 | 1): Promise<Balancer> {
  let targets: readonly [string, string] | undefined;
  const served: Balancer['served'] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const replica = choose(path);
    const target = targets?.[replica];
    if (!target) return void res.writeHead(503).end('no replicas yet');
    served.push({ path, replica });
    const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTargets: (t) => void (targets = t),
    served,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
