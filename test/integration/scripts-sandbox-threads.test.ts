/**
 * How the sandbox spends threads and engines (issue 17's throughput work): an endpoint's repeated
 * `handle(req)` reuses its evaluated module, `main()` never does; a run that left anything pending
 * in its instance leaves none behind; few threads carry many runs, a run waiting on the host holds
 * its thread alone, and a thread computing without pause is passed over for a new one.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxRun } from '../../shared/scripts/index.js';
import { expectHealthy, heldHost, mainRun } from './scripts-sandbox-fixtures.js';

const counter = 'let calls = 0;\nexport function handle() { return ++calls }\nexport function main() { return ++calls }';
const handleRun = (source: string, overrides: Partial<SandboxRun> = {}): SandboxRun => mainRun(source, { entry: 'handle', args: [{}], ...overrides });


async function withSandbox(options: Parameters<typeof createSandbox>[0], body: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = createSandbox(options);
  try {
    await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

describe('warm handler instances', () => {
  it('repeated handle(req) runs of one source reuse its evaluated module; main() runs always start fresh', async () => {
    await withSandbox({ maxConcurrent: 1 }, async (sandbox) => {
      expect(await sandbox.run(mainRun(counter))).toMatchObject({ status: 'ok', result: 1 });
      expect(await sandbox.run(mainRun(counter))).toMatchObject({ status: 'ok', result: 1 });
      expect(await sandbox.run(handleRun(counter))).toMatchObject({ status: 'ok', result: 1 });
      expect(await sandbox.run(handleRun(counter))).toMatchObject({ status: 'ok', result: 2 });
    });
  });

  it('a handler that threw keeps its instance: the module is intact', async () => {
    await withSandbox({ maxConcurrent: 1 }, async (sandbox) => {
      const source = "let calls = 0;\nexport function handle(req) { calls++; if (req.fail) throw new Error('no'); return calls }";
      expect(await sandbox.run(handleRun(source))).toMatchObject({ status: 'ok', result: 1 });
      expect(await sandbox.run(handleRun(source, { args: [{ fail: true }] }))).toMatchObject({ status: 'error', error: expect.stringContaining('Error: no') });
      expect(await sandbox.run(handleRun(source))).toMatchObject({ status: 'ok', result: 3 });
    });
  });

  it('another source, library version, memory ceiling or host gets its own instance', async () => {
    await withSandbox({ maxConcurrent: 1 }, async (sandbox) => {
      const withLibrary = `import { base } from 'lib';\nlet calls = base;\nexport function handle() { return ++calls }`;
      let lib = 'export const base = 10;';
      const run = (overrides: Partial<SandboxRun> = {}) => sandbox.run(handleRun(withLibrary, { resolveLibrary: async () => lib, ...overrides }));
      expect(await run()).toMatchObject({ result: 11 });
      expect(await run()).toMatchObject({ result: 12 });
      lib = 'export const base = 20;';
      expect(await run()).toMatchObject({ result: 21 });
      expect(await run({ memoryBytes: 32 * 1024 * 1024 })).toMatchObject({ result: 21 });
      expect(await run({ memoryBytes: 32 * 1024 * 1024, host: { extra: async () => null } })).toMatchObject({ result: 21 });
      expect(await run({ memoryBytes: 32 * 1024 * 1024, host: { extra: async () => null } })).toMatchObject({ result: 22 });
    });
  });

  it('a handler that returned with a host call still unanswered leaves no instance for the next request', async () => {
    await withSandbox({ maxConcurrent: 1 }, async (sandbox) => {
      const source = 'let calls = 0;\nexport function handle() { platform.hold(); return ++calls }';
      const held = heldHost();
      expect(await sandbox.run(handleRun(source, { host: held.host }))).toMatchObject({ status: 'ok', result: 1 });
      held.release('late');
      expect(await sandbox.run(handleRun(source, { host: held.host }))).toMatchObject({ status: 'ok', result: 1 });
    });
  });

  it('a handler stopped at its deadline or its memory ceiling leaves no instance for the next request', async () => {
    await withSandbox({ maxConcurrent: 1 }, async (sandbox) => {
      const source = "let calls = 0;\nexport function handle(req) { calls++; if (req.spin) for (;;) {} if (req.grow) { const a = []; for (;;) a.push('x'.repeat(1024)) } return calls }";
      expect(await sandbox.run(handleRun(source))).toMatchObject({ result: 1 });
      expect(await sandbox.run(handleRun(source, { args: [{ spin: true }], deadlineMs: 200 }))).toMatchObject({ status: 'timeout' });
      expect(await sandbox.run(handleRun(source))).toMatchObject({ result: 1 });
      expect(await sandbox.run(handleRun(source, { args: [{ grow: true }], memoryBytes: 16 * 1024 * 1024 }))).toMatchObject({ status: 'memory' });
      expect(await sandbox.run(handleRun(source))).toMatchObject({ result: 2 });
      await expectHealthy(sandbox);
    });
  });

  it('a burst of requests to a synchronous handler takes turns on one warm instance instead of one engine each', async () => {
    // Each run used to hold an engine from its start to its end, across a turn of the thread's
    // loop: a burst of n runs on a thread needed n engines, each compiling QuickJS and evaluating
    // the script anew once the thread kept more than it could (8) — ten times slower on one thread.
    await withSandbox({ maxConcurrent: 32, maxThreads: 1 }, async (sandbox) => {
      expect(await sandbox.run(handleRun(counter))).toMatchObject({ status: 'ok', result: 1 });
      const outcomes = await Promise.all(Array.from({ length: 32 }, () => sandbox.run(handleRun(counter))));
      const results = outcomes.map((outcome) => (outcome.status === 'ok' ? outcome.result : outcome.error));
      expect(new Set(results)).toEqual(new Set(Array.from({ length: 32 }, (_, i) => i + 2)));
      expect(sandbox.threads).toBe(1);
    });
  });

  it('each request gets the console of its own run only', async () => {
    await withSandbox({ maxConcurrent: 1 }, async (sandbox) => {
      const source = "console.log('loaded');\nexport function handle(req) { console.log('request', req.n); return req.n }";
      expect(await sandbox.run(handleRun(source, { args: [{ n: 1 }] }))).toMatchObject({ result: 1, console: 'loaded\nrequest 1' });
      expect(await sandbox.run(handleRun(source, { args: [{ n: 2 }] }))).toMatchObject({ result: 2, console: 'request 2' });
    });
  });
});

describe('threads', () => {
  it('a run waiting on the host holds its thread alone: runs arriving meanwhile go to other threads, and all answer', async () => {
    // A script sharing the thread could hold it past its deadline and have it terminated, and the waiting run with it.
    await withSandbox({ maxConcurrent: 8, maxThreads: 1, stallMs: 60_000 }, async (sandbox) => {
      const held = heldHost();
      const waiting = sandbox.run(mainRun('export async function main() { return await platform.hold() }', { host: held.host }));
      await held.called;
      expect(await sandbox.run(mainRun('export function main() { return 7 }'))).toMatchObject({ status: 'ok', result: 7 });
      expect(sandbox.threads).toBe(2);
      held.release('released');
      expect(await waiting).toMatchObject({ status: 'ok', result: 'released' });
    });
  });

  it('a thread computing without pause gets no new runs: another thread starts and answers meanwhile', async () => {
    // stallMs 0: a thread with an executing run counts as stalled at once (no waiting in the test).
    await withSandbox({ maxConcurrent: 4, maxThreads: 1, stallMs: 0 }, async (sandbox) => {
      const held = heldHost();
      held.release('go');
      const spinning = sandbox.run(mainRun('export async function main() { await platform.hold(); for (;;) {} }', { host: held.host, deadlineMs: 30_000, memoryBytes: 16 * 1024 * 1024 }));
      await held.called;
      // The host's answer is posted once this turn's promise jobs have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await sandbox.run(mainRun('export function main() { return 7 }'))).toMatchObject({ status: 'ok', result: 7 });
      expect(sandbox.threads).toBe(2);
      await sandbox.close();
      expect(await spinning).toMatchObject({ status: 'error' });
    });
  });

  it('a thread silent only because the api thread was too busy to read it is not stalled: no thread starts', async () => {
    // The storm this prevents: on a saturated replica every thread looked stalled (its answers
    // unread for stallMs), so each request started a thread that compiled an engine and evaluated
    // the script again — more work exactly when cores were scarcest.
    // stallMs well above a warm run's time even on a loaded machine, well below the api's stall here.
    await withSandbox({ maxConcurrent: 16, maxThreads: 1, stallMs: 40 }, async (sandbox) => {
      const source = 'export function handle(req) { return req.n }';
      expect(await sandbox.run(handleRun(source, { args: [{ n: 0 }] }))).toMatchObject({ result: 0 });
      const first = Array.from({ length: 8 }, (_, n) => sandbox.run(handleRun(source, { args: [{ n }] })));
      // The batch leaves at the next turn; then this thread is busy well past stallMs, reading nothing.
      await new Promise((resolve) => setImmediate(resolve));
      const until = performance.now() + 200;
      while (performance.now() < until);
      const more = Array.from({ length: 8 }, (_, n) => sandbox.run(handleRun(source, { args: [{ n: n + 8 }] })));
      expect(sandbox.threads).toBe(1);
      const outcomes = await Promise.all([...first, ...more]);
      outcomes.forEach((outcome, n) => expect(outcome).toMatchObject({ status: 'ok', result: n }));
      expect(sandbox.threads).toBe(1);
    });
  });

  it('runs handed to a thread behind one that starts waiting on the host are handed back and run elsewhere', async () => {
    await withSandbox({ maxConcurrent: 8, maxThreads: 1, stallMs: 60_000 }, async (sandbox) => {
      const held = heldHost();
      held.release('n');
      // One turn: all go to the one thread; the first waits on the host, so the thread returns the others.
      const outcomes = await Promise.all([
        sandbox.run(mainRun('export async function main() { return await platform.hold() }', { host: held.host })),
        ...Array.from({ length: 4 }, (_, i) => sandbox.run(mainRun(`export function main() { return ${i} }`))),
      ]);
      expect(outcomes.map((outcome) => (outcome.status === 'ok' ? outcome.result : outcome.error))).toEqual(['n', 0, 1, 2, 3]);
    });
  });
});
