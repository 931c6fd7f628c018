/**
 * The sandbox's contract (issue 16, item 2): libraries imported by name, platform host calls with
 * JSON in and out, bounded console capture, the concurrency cap, and no memory growth over many runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../shared/scripts/index.js';
import { expectHealthy, mainRun } from './scripts-sandbox-fixtures.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox({ maxConcurrent: 2 });
});
afterAll(async () => {
  await sandbox.close();
});

const libraries: Record<string, string> = {
  formatting: "import { upper } from 'text'; export const fmt = (value) => upper(`<${value}>`);",
  text: 'export const upper = (s) => s.toUpperCase();',
  loopA: "import { b } from 'loopB'; export const a = 1;",
  loopB: "import { a } from 'loopA'; export const b = 2;",
  broken: "import { nothing } from 'missing'; export const x = 1;",
};
const resolveLibrary = async (name: string) => libraries[name];

describe('libraries', () => {
  it('imports a library by name, which imports another', async () => {
    const outcome = await sandbox.run(mainRun("import { fmt } from 'formatting';\nexport function main(v) { return fmt(v) }", { args: ['hi'], resolveLibrary }));
    expect(outcome).toMatchObject({ status: 'ok', result: '<HI>' });
  });

  it('a missing library is an error naming it and its importer', async () => {
    const direct = await sandbox.run(mainRun("import { x } from 'nowhere';\nexport function main() { return x }", { resolveLibrary }));
    expect(direct).toMatchObject({ status: 'error', error: "script imports unknown library 'nowhere'" });
    const nested = await sandbox.run(mainRun("import { x } from 'broken';\nexport function main() { return x }", { resolveLibrary }));
    expect(nested).toMatchObject({ status: 'error', error: "broken imports unknown library 'missing'" });
  });

  it('an import cycle is an error naming the modules', async () => {
    const outcome = await sandbox.run(mainRun("import { a } from 'loopA';\nexport function main() { return a }", { resolveLibrary }));
    expect(outcome).toMatchObject({ status: 'error', error: 'import cycle: script -> loopA -> loopB -> loopA' });
  });

  it('calls handle(req) for a handler run, and says so when the entry is not exported', async () => {
    const source = 'export async function handle(req) { return { status: 200, body: req.path } }';
    const handled = await sandbox.run({ ...mainRun(source), entry: 'handle', args: [{ path: '/x' }] });
    expect(handled).toMatchObject({ status: 'ok', result: { status: 200, body: '/x' } });
    const missing = await sandbox.run(mainRun(source));
    expect(missing).toMatchObject({ status: 'error', error: expect.stringContaining('does not export main()') });
  });

  it('reports a thrown error with its message and the script line', async () => {
    const outcome = await sandbox.run(mainRun("export function main() {\n  throw new RangeError('bad input');\n}"));
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringMatching(/^RangeError: bad input\n.*script:2/) });
  });
});

describe('platform host calls', () => {
  it("gives the script a host function's result, and its rejection as an exception with its message", async () => {
    const host = {
      add: async (a: unknown, b: unknown) => ({ sum: (a as number) + (b as number) }),
      refuse: async () => { throw new Error('not allowed: tool sql_query'); },
    };
    const outcome = await sandbox.run(mainRun(`export async function main() {
      const { sum } = await platform.add(2, 3);
      let refused;
      try { await platform.refuse(); } catch (e) { refused = e.message; }
      return { sum, refused, missing: typeof platform.exec };
    }`, { host }));
    expect(outcome).toMatchObject({ status: 'ok', result: { sum: 5, refused: 'not allowed: tool sql_query', missing: 'undefined' } });
  });

  it('an uncaught rejection ends the run as an error with the message', async () => {
    const outcome = await sandbox.run(mainRun('export async function main() { await platform.refuse() }', { host: { refuse: async () => { throw new Error('quota exceeded'); } } }));
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringContaining('quota exceeded') });
  });

  it('a result that is not JSON is an error, not a host object', async () => {
    const outcome = await sandbox.run(mainRun('export function main() { return 10n }'));
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringContaining('BigInt') });
  });
});

describe('console', () => {
  it('captures log, info, warn and error with their levels', async () => {
    const outcome = await sandbox.run(mainRun("export function main() { console.log('a', 1, { b: [2] }); console.info('i'); console.warn('w'); console.error('e'); return null }"));
    expect(outcome).toMatchObject({ status: 'ok', result: null, console: 'a 1 {"b":[2]}\n[info] i\n[warn] w\n[error] e' });
  });

  it('bounds the output at the limit and marks it truncated, also when the run fails', async () => {
    const outcome = await sandbox.run(mainRun("export function main() { for (let i = 0; i < 1000; i++) console.log('line ' + i); throw new Error('after') }", { consoleLimitBytes: 100 }));
    expect(outcome.status).toBe('error');
    expect(outcome.console.startsWith('line 0\nline 1\n')).toBe(true);
    expect(outcome.console.endsWith('\n[truncated]')).toBe(true);
    expect(Buffer.byteLength(outcome.console.replace(/\n\[truncated\]$/, ''))).toBeLessThanOrEqual(100);
  });
});

describe('capacity', () => {
  it('answers busy at once beyond maxConcurrent, and runs again once a slot frees', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => undefined;
    const bothEntered = new Promise<void>((resolve) => {
      let count = 0;
      entered = () => (++count === 2 ? resolve() : undefined);
    });
    const host = { hold: async () => { entered(); await held; return 'released'; } };
    const holding = [0, 1].map(() => sandbox.run(mainRun('export async function main() { return await platform.hold() }', { host })));
    await bothEntered;
    expect(sandbox.running).toBe(2);
    const busy = await sandbox.run(mainRun('export function main() { return 1 }'));
    expect(busy).toMatchObject({ status: 'busy', console: '' });
    release();
    for (const outcome of await Promise.all(holding)) expect(outcome).toMatchObject({ status: 'ok', result: 'released' });
    expect(sandbox.running).toBe(0);
    await expectHealthy(sandbox);
  });

  it('keeps keepIdle threads after a burst; the idle ones beyond end after idleMs, and runs start threads again', async () => {
    const bursty = createSandbox({ maxConcurrent: 4, maxThreads: 4, keepIdle: 1, idleMs: 50 });
    try {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered = 0;
      let allIn: () => void = () => undefined;
      const allEntered = new Promise<void>((resolve) => (allIn = resolve));
      const host = { hold: async () => { if (++entered === 4) allIn(); await held; return 'released'; } };
      const burst = [0, 1, 2, 3].map(() => bursty.run(mainRun('export async function main() { return await platform.hold() }', { host })));
      await allEntered;
      expect(bursty.threads).toBe(4);
      release();
      for (const outcome of await Promise.all(burst)) expect(outcome).toMatchObject({ status: 'ok', result: 'released' });
      for (let tries = 0; bursty.threads > 1 && tries < 100; tries++) await new Promise((r) => setTimeout(r, 20));
      expect(bursty.threads).toBe(1);
      await expectHealthy(bursty);
      expect(bursty.threads).toBe(1);
    } finally {
      await bursty.close();
    }
  });

  it("1,000 sequential runs grow this process's RSS by less than 50 MiB", async () => {
    const run = mainRun("import { fmt } from 'formatting';\nexport function main(n) { console.log(n); return fmt(n) }", { resolveLibrary });
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 0; i < 50; i++) await sandbox.run({ ...run, args: [i] });
    gc?.();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 1_000; i++) {
      const outcome = await sandbox.run({ ...run, args: [i] });
      if (outcome.status !== 'ok') throw new Error(`run ${i}: ${JSON.stringify(outcome)}`);
    }
    gc?.();
    const grownMiB = (process.memoryUsage().rss - before) / 1024 / 1024;
    expect(grownMiB).toBeLessThan(50);
  });
});
