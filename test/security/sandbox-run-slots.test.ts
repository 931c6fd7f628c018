/**
 * Security pass 3, items 6 and 9: the sandbox's run slots. One principal cannot take every slot
 * (a cap per principal), runs other than endpoint handlers leave slots for the handlers, an
 * over-cap run is answered `busy` naming the cap, and a run's slot is given back whatever the run
 * came to — also when its arguments cannot even be copied in (a value nested 400,000 deep).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxRun } from '../../shared/scripts/index.js';
import { expectHealthy, heldHost, mainRun } from '../integration/scripts-sandbox-fixtures.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});


const waitingMain = (host: SandboxRun['host'], principal?: string) =>
  mainRun('export async function main() { return await platform.hold() }', { host, ...(principal ? { principal } : {}) });
const trivialMain = (principal: string) => mainRun('export function main() { return 1 }', { principal });

/** 400,000 arrays nested: JSON.stringify throws RangeError on it. */
function deepValue(): unknown {
  let value: unknown = [];
  for (let i = 0; i < 400_000; i++) value = [value];
  return value;
}

describe('run slots per principal', () => {
  it('one principal gets at most maxPerPrincipal runs at once; its next is busy naming the cap, another principal still runs', async () => {
    sandbox = createSandbox({ maxConcurrent: 8, maxPerPrincipal: 2 });
    const held = heldHost(2);
    const mine = [waitingMain(held.host, 'user:alice'), waitingMain(held.host, 'user:alice')].map((run) => sandbox!.run(run));
    await held.called;
    expect(await sandbox.run(trivialMain('user:alice'))).toMatchObject({ status: 'busy', error: expect.stringContaining('scripts.max_runs_per_caller') });
    expect(await sandbox.run(trivialMain('user:bob'))).toMatchObject({ status: 'ok', result: 1 });
    held.release('released');
    for (const outcome of await Promise.all(mine)) expect(outcome).toMatchObject({ status: 'ok', result: 'released' });
    expect(await sandbox.run(trivialMain('user:alice'))).toMatchObject({ status: 'ok', result: 1 });
  });

  it('runs other than handlers leave reservedForHandlers slots free: a handler still runs when they are all taken', async () => {
    sandbox = createSandbox({ maxConcurrent: 4, reservedForHandlers: 2 });
    const held = heldHost(2);
    const drafts = [waitingMain(held.host, 'user:a'), waitingMain(held.host, 'user:b')].map((run) => sandbox!.run(run));
    await held.called;
    expect(await sandbox.run(trivialMain('user:c'))).toMatchObject({ status: 'busy', error: expect.stringContaining('scripts.handler_reserved_runs') });
    expect(await sandbox.run(mainRun('export function handle() { return 2 }', { entry: 'handle', args: [{}] }))).toMatchObject({ status: 'ok', result: 2 });
    held.release('released');
    await Promise.all(drafts);
    expect(sandbox.running).toBe(0);
  });
});

describe('a run’s slot is released whatever the run came to', () => {
  it('a run whose arguments cannot be copied in ends as an error, and leaves the sandbox usable', async () => {
    sandbox = createSandbox({ maxConcurrent: 1 });
    const outcome = await sandbox.run(mainRun('export function handle(req) { return 1 }', { entry: 'handle', args: [deepValue()] }));
    expect(outcome).toMatchObject({ status: 'error', error: expect.stringContaining('could not be copied in') });
    expect(sandbox.running).toBe(0);
    await expectHealthy(sandbox);
  });

  it('a host function answering a value too deep to copy back fails that call only', async () => {
    sandbox = createSandbox({ maxConcurrent: 1 });
    const source = "export async function main() { try { await platform.deep() } catch (e) { return 'refused: ' + e.message } }";
    expect(await sandbox.run(mainRun(source, { host: { deep: async () => deepValue() } }))).toMatchObject({ status: 'ok', result: expect.stringContaining('refused: ') });
    expect(sandbox.running).toBe(0);
    await expectHealthy(sandbox);
  });
});
