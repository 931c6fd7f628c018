/** Shared pieces of the sandbox tests: a run with defaults, and a probe of the api's event loop. */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox, SandboxOutcome, SandboxRun } from '../../shared/scripts/index.js';

export const mib = 1024 * 1024;

/** A `main()` run of `source` with generous defaults, overridable per test. */
export function mainRun(source: string, overrides: Partial<SandboxRun> = {}): SandboxRun {
  return { source, entry: 'main', args: [], memoryBytes: 64 * mib, deadlineMs: 5_000, resolveLibrary: async () => undefined, host: {}, ...overrides };
}

/**
 * Runs `run` while an HTTP server in this process is asked, one request after the other, until the
 * run ends: answers how many requests were answered while the run was still in flight. A script
 * blocking the event loop would leave it at zero.
 */
export async function runWhileServing(sandbox: Sandbox, run: SandboxRun): Promise<{ outcome: SandboxOutcome; answeredDuringRun: number }> {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let ended = false;
  let answeredDuringRun = 0;
  const pending = sandbox.run(run).finally(() => (ended = true));
  try {
    while (!ended) {
      await get(port);
      if (!ended) answeredDuringRun++;
    }
    return { outcome: await pending, answeredDuringRun };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

function get(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/' }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
  });
}

/** A host function `hold` the test releases (with `value`), and a promise that resolves once `count` calls of it wait. */
export function heldHost(count = 1) {
  let release: (value: string) => void = () => undefined;
  const released = new Promise<string>((resolve) => (release = resolve));
  let waiting = 0;
  let entered: () => void = () => undefined;
  const called = new Promise<void>((resolve) => (entered = resolve));
  const hold = async () => {
    if (++waiting === count) entered();
    return released;
  };
  return { host: { hold }, called, release };
}

/** The api still runs scripts: a trivial run answers ok. */
export async function expectHealthy(sandbox: Sandbox): Promise<void> {
  const outcome = await sandbox.run(mainRun('export function main() { return 40 + 2 }'));
  if (outcome.status !== 'ok' || outcome.result !== 42) throw new Error(`a new run after the test did not work: ${JSON.stringify(outcome)}`);
}
