/**
 * Security pass 3, item 3: a sandbox thread is judged busy by the clock, not by the interpreter's
 * interruption checks — a script inside one long built-in call passes none, yet holds its thread
 * until the thread is terminated at the run's deadline. No run waits behind such a thread, and
 * terminating it fails no other run that can be run again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOutcome } from '../../shared/scripts/index.js';
import { expectHealthy, heldHost, mainRun } from '../integration/scripts-sandbox-fixtures.js';

/** Seconds of one uninterruptible call of QuickJS's indexOf (some 12 s on a 2-core machine): past any deadline here. */
const stuck = "export function main() { return 'a'.repeat(6e6).indexOf('a'.repeat(1000) + 'b') }";
const trivial = mainRun('export function main() { return 7 }');

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** The runs' outcomes, and a flag set once they have all ended. */
function tracked(runs: Promise<SandboxOutcome>[]): { ended: () => boolean; all: Promise<SandboxOutcome[]> } {
  let ended = false;
  const all = Promise.all(runs).finally(() => (ended = true));
  return { ended: () => ended, all };
}


describe('sandbox threads are judged busy by time', () => {
  it('another caller’s trivial run is answered while every thread is inside a long built-in call, before those runs end', async () => {
    sandbox = createSandbox({ maxConcurrent: 8, maxThreads: 2 });
    const stuckRuns = tracked(Array.from({ length: 4 }, () => sandbox!.run(mainRun(stuck, { deadlineMs: 3_000 }))));
    // Handed out in the same turn: it lands behind one of them, and must be taken back from there.
    expect(await sandbox.run(trivial)).toMatchObject({ status: 'ok', result: 7 });
    // And once they compute: no thread takes it.
    expect(await sandbox.run(trivial)).toMatchObject({ status: 'ok', result: 7 });
    expect(stuckRuns.ended()).toBe(false);
    for (const outcome of await stuckRuns.all) expect(outcome).toMatchObject({ status: 'timeout', error: expect.stringContaining('worker was stopped') });
    await expectHealthy(sandbox);
  });

  it('runs handed to a thread in the same batch as a stuck one are answered before it ends: those after it placed elsewhere, not failed when that thread is stopped', async () => {
    sandbox = createSandbox({ maxConcurrent: 4, maxThreads: 1 });
    // The thread keeps an engine ready from this run: the stuck run starts at once, in the turn that brought both.
    await expectHealthy(sandbox);
    // One turn, one batch: a run before the stuck one (its answer must leave before that script starts) and one after.
    const before = sandbox.run(trivial);
    // Its deadline leaves a new thread time to start on a busy machine.
    const stuckRun = tracked([sandbox.run(mainRun(stuck, { deadlineMs: 3_000 }))]);
    const behind = sandbox.run(trivial);
    expect(await before).toMatchObject({ status: 'ok', result: 7 });
    expect(await behind).toMatchObject({ status: 'ok', result: 7 });
    expect(stuckRun.ended()).toBe(false);
    expect(await stuckRun.all).toEqual([expect.objectContaining({ status: 'timeout' })]);
  });

  it('stopping an overdue run does not fail a run waiting on the host: the stuck one never shares its thread', async () => {
    sandbox = createSandbox({ maxConcurrent: 4, maxThreads: 1 });
    const held = heldHost();
    const waiting = sandbox.run(mainRun("export async function main() { return 'waited ' + (await platform.hold()) }", { host: held.host }));
    await held.called;
    expect(await sandbox.run(mainRun(stuck, { deadlineMs: 1_000 }))).toMatchObject({ status: 'timeout', error: expect.stringContaining('worker was stopped') });
    held.release('long');
    expect(await waiting).toMatchObject({ status: 'ok', result: 'waited long' });
  });
});
