/**
 * The sandbox's containment (issue 16, acceptance "Sandbox containment"): runaway scripts are
 * stopped without stalling the api's event loop, and a script reaches nothing of the host. Each
 * test ends by proving a new run still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../shared/scripts/index.js';
import { expectHealthy, mainRun, mib, runWhileServing } from './scripts-sandbox-fixtures.js';

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox({ maxConcurrent: 4 });
});
afterAll(async () => {
  await sandbox.close();
});

describe('runaway scripts', () => {
  it('stops an infinite loop at its deadline while the event loop keeps answering', async () => {
    const { outcome, answeredDuringRun } = await runWhileServing(sandbox, mainRun('export function main() { for (;;) {} }', { deadlineMs: 1_000 }));
    expect(outcome.status).toBe('timeout');
    expect(outcome.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(answeredDuringRun).toBeGreaterThan(0);
    await expectHealthy(sandbox);
  });

  it('stops an async loop that awaits between iterations at its deadline', async () => {
    const outcome = await sandbox.run(mainRun('export async function main() { for (;;) await platform.tick() }', { deadlineMs: 500, host: { tick: async () => 1 } }));
    expect(outcome.status).toBe('timeout');
    await expectHealthy(sandbox);
  });

  it('stops a memory bomb at its ceiling, the event loop answering meanwhile', async () => {
    const bomb = 'export function main() { const kept = []; for (let i = 0; ; i++) kept.push({ i, text: "x".repeat(64) + i, list: [i, i, i] }) }';
    const { outcome } = await runWhileServing(sandbox, mainRun(bomb, { memoryBytes: 64 * mib }));
    expect(outcome).toMatchObject({ status: 'memory', error: expect.stringContaining(String(64 * mib)) });
    await expectHealthy(sandbox);
  });

  it('stops one large allocation (a string of 256 MiB) at the ceiling', async () => {
    const outcome = await sandbox.run(mainRun('export function main() { return "x".repeat(2 ** 28).length }', { memoryBytes: 32 * mib }));
    expect(outcome.status).toBe('memory');
    await expectHealthy(sandbox);
  });

  it('ends deep recursion as an error naming the stack overflow', async () => {
    const outcome = await sandbox.run(mainRun('export function main() { const f = () => f() + 1; return f() }'));
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringContaining('stack overflow') });
    if (outcome.status === 'error') expect(outcome.error.split('\n').length).toBeLessThanOrEqual(11);
    await expectHealthy(sandbox);
  });
});

describe('no host access', () => {
  it('has no process, require, timers, std/os modules or host globals', async () => {
    const outcome = await sandbox.run(mainRun(`export function main() {
      const names = ['process', 'require', 'module', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'std', 'os', 'WebAssembly', 'global'];
      return Object.fromEntries(names.map((n) => [n, typeof globalThis[n]]));
    }`));
    expect(outcome.status).toBe('ok');
    if (outcome.status === 'ok') for (const type of Object.values(outcome.result as Record<string, string>)) expect(type).toBe('undefined');
  });

  it('Function constructors reach only the sandbox global', async () => {
    const outcome = await sandbox.run(mainRun(`export function main() {
      const viaFunction = Function('return this')();
      const viaConstructor = (() => {}).constructor('return this')();
      const viaAsync = (async () => {}).constructor;
      return {
        same: viaFunction === globalThis && viaConstructor === globalThis,
        process: typeof viaFunction.process,
        asyncGlobal: typeof viaAsync('return process'),
        escape: (() => { try { return this.constructor.constructor('return process')(); } catch (e) { return String(e); } })(),
        evalProcess: (() => { try { return eval('process'); } catch (e) { return String(e); } })(),
      };
    }`));
    expect(outcome).toMatchObject({ status: 'ok', result: { same: true, process: 'undefined', asyncGlobal: 'function' } });
    if (outcome.status === 'ok') {
      const result = outcome.result as { escape: string; evalProcess: string };
      expect(result.escape).toMatch(/TypeError|ReferenceError/);
      expect(result.evalProcess).toContain("ReferenceError");
    }
  });

  it.each([
    ["import fs from 'fs'", "unknown library 'fs'"],
    ["import { readFileSync } from 'node:fs'", "'node:fs'"],
    ["import x from './local.js'", "'./local.js'"],
    ["import x from 'https://example.com/x.js'", "'https://example.com/x.js'"],
  ])('refuses %s naming the module', async (statement, named) => {
    const outcome = await sandbox.run(mainRun(`${statement};\nexport function main() { return 1 }`));
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringContaining(named) });
  });

  it("refuses import('fs') and a computed dynamic import", async () => {
    const literal = await sandbox.run(mainRun("export async function main() { return await import('fs') }"));
    expect(literal).toMatchObject({ status: 'error', error: expect.stringContaining("'fs'") });
    const computed = await sandbox.run(mainRun("export async function main() { const name = ['f', 's'].join(''); return Object.keys(await import(name)) }"));
    expect(computed).toMatchObject({ status: 'error', error: expect.stringContaining("unknown library 'fs'") });
  });

  it('prototype pollution through arguments or results does not reach the host, nor the next run', async () => {
    const outcome = await sandbox.run(mainRun(`export function main(input) {
      input.__proto__.polluted = 'yes';
      Object.prototype.pollutedToo = 'yes';
      return JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}');
    }`, { args: [{ a: 1 }] }));
    expect(outcome.status).toBe('ok');
    const plain: Record<string, unknown> = {};
    expect(plain.polluted).toBeUndefined();
    expect(plain.pollutedToo).toBeUndefined();
    if (outcome.status === 'ok') expect(Object.getPrototypeOf(outcome.result)).toBe(Object.prototype);
    const next = await sandbox.run(mainRun('export function main() { return [({}).polluted ?? null, ({}).pollutedToo ?? null] }'));
    expect(next).toMatchObject({ status: 'ok', result: [null, null] });
  });

  it('host functions get JSON copies: a script cannot touch the objects it was given or the host function', async () => {
    const given = { list: [1, 2] };
    let seen: unknown;
    const outcome = await sandbox.run(mainRun(`export async function main(input) {
      input.list.push(3);
      const echoed = await platform.keep(input);
      echoed.list.push(4);
      return [platform.keep.constructor.constructor('return typeof process')(), Object.isFrozen(platform)];
    }`, { args: [given], host: { keep: async (value) => ((seen = value), value) } }));
    expect(outcome).toMatchObject({ status: 'ok', result: ['undefined', true] });
    expect(given).toEqual({ list: [1, 2] });
    expect(seen).toEqual({ list: [1, 2, 3] });
  });
});
