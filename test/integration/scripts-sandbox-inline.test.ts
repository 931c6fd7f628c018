/**
 * Warm handlers answered on the caller's thread (shared/scripts/sandbox/inline.ts; issue 17's
 * throughput): a handler that needs nothing but its own instance is answered here without a
 * thread hop; one that calls the platform, computes past its budget, runs out of memory or
 * imports a library is declined — nothing of the attempt is seen, no host call is made here —
 * and goes to a thread, as does every later run of that source.
 */
import { describe, expect, it } from 'vitest';
import { InlineHandlers } from '../../shared/scripts/sandbox/inline.js';
import { createSandbox, type SandboxRun } from '../../shared/scripts/index.js';
import { mainRun, mib } from './scripts-sandbox-fixtures.js';

const handleRun = (source: string, overrides: Partial<SandboxRun> = {}): SandboxRun => mainRun(source, { entry: 'handle', args: [{ n: 1 }], ...overrides });
const consoleLimit = 64 * 1024;

async function prepared(): Promise<InlineHandlers> {
  const inline = new InlineHandlers({ budgetChecks: 4, loadChecks: 64, maxStackBytes: 512 * 1024 });
  await inline.prepare(64 * mib);
  return inline;
}

describe('handlers answered on the caller’s thread', () => {
  it('a warm handler that needs only its instance is answered synchronously, with its own console', async () => {
    const inline = await prepared();
    const source = "let calls = 0;\nexport function handle(req) { console.log('request', req.n); return { json: { calls: ++calls, n: req.n } } }";
    // The first run evaluates the module (asynchronous in QuickJS's terms); the next ones are plain calls.
    expect(await inline.tryRun(handleRun(source), consoleLimit)).toMatchObject({ status: 'ok', resultJson: '{"json":{"calls":1,"n":1}}', console: 'request 1' });
    const second = inline.tryRun(handleRun(source, { args: [{ n: 2 }] }), consoleLimit);
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toMatchObject({ status: 'ok', resultJson: '{"json":{"calls":2,"n":2}}', console: 'request 2' });
    expect(inline.answered).toBe(2);
  });

  it('a handler that throws is answered here with its error', async () => {
    const inline = await prepared();
    expect(await inline.tryRun(handleRun("export function handle() { throw new TypeError('bad request') }"), consoleLimit)).toMatchObject({
      status: 'error',
      error: expect.stringContaining('TypeError: bad request'),
    });
  });

  it('a handler that calls the platform is declined without the call being made, and so is every later run of its source', async () => {
    const inline = await prepared();
    let calls = 0;
    const host = { sql: async () => ++calls };
    const source = "export async function handle() { let r; try { r = await platform.sql('select 1') } catch (e) { r = 'caught' } return { json: r } }";
    expect(await inline.tryRun(handleRun(source, { host }), consoleLimit)).toBeUndefined();
    expect(calls).toBe(0);
    expect(inline.tryRun(handleRun(source, { host }), consoleLimit)).toBeUndefined();
    expect(inline.answered).toBe(0);
  });

  it('a handler computing past its budget is interrupted and declined; a short one of another source still answers', async () => {
    const inline = await prepared();
    const spin = 'let x = 0;\nexport function handle() { for (let i = 0; i < 1e8; i++) x += i; return { json: x } }';
    const started = performance.now();
    expect(await inline.tryRun(handleRun(spin), consoleLimit)).toBeUndefined();
    // Stopped after a few interruption checks, not after its hundred million iterations.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(inline.tryRun(handleRun(spin), consoleLimit)).toBeUndefined();
    // An interrupted engine is not trusted again: a new one is compiled for the next runs.
    await inline.prepare(64 * mib);
    expect(await inline.tryRun(handleRun('export function handle() { return { json: 1 } }'), consoleLimit)).toMatchObject({ status: 'ok' });
  });

  it('a handler that imports a library, or is not a handler run, goes to a thread', async () => {
    const inline = await prepared();
    expect(inline.tryRun(handleRun("import { x } from 'lib';\nexport function handle() { return { json: x } }"), consoleLimit)).toBeUndefined();
    expect(inline.tryRun(mainRun('export function main() { return 1 }'), consoleLimit)).toBeUndefined();
    expect(inline.answered).toBe(0);
  });

  it('through the sandbox, a handler that calls the platform makes exactly one host call per run, whichever thread answers', async () => {
    const sandbox = createSandbox({ maxConcurrent: 4 });
    try {
      let calls = 0;
      const host = { sql: async () => ++calls };
      const source = "export async function handle() { return { json: await platform.sql('select 1') } }";
      const trivial = 'export function handle() { return { json: 1 } }';
      for (let i = 1; i <= 12; i++) {
        expect(await sandbox.run(handleRun(source, { host }))).toMatchObject({ status: 'ok', result: { json: i } });
        expect(await sandbox.run(handleRun(trivial))).toMatchObject({ status: 'ok', result: { json: 1 } });
        // Let the caller's-thread engine finish compiling between runs.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(calls).toBe(12);
      expect(sandbox.answeredInline).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
