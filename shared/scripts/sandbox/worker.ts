/**
 * A sandbox worker thread: runs one script at a time in a fresh QuickJS runtime (quickjs-run.ts),
 * asking the pool for libraries and host calls.
 *
 * The memory ceiling is the QuickJS module's WebAssembly memory maximum: this build's allocator
 * reports 8 bytes per allocation to QuickJS's own accounting (`setMemoryLimit` sees a 20 MB array
 * of strings as 160 KB), so only the linear memory's `maximum` bounds a run for real; a module
 * instance therefore serves one ceiling. It is kept for later runs with the same ceiling, and
 * replaced after a run that grew it past `retireAboveBytes` (WebAssembly memory never shrinks),
 * ran out of memory, or left the engine unhealthy.
 */
import { parentPort } from 'node:worker_threads';
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import type { Ask, AskReply, FromWorker, RunDone, ToWorker } from './protocol.js';
import { runInQuickJS } from './quickjs-run.js';

const pageBytes = 64 * 1024;
/** The linear memory the QuickJS build starts with (its declared minimum). */
const initialPages = 256;
const retireAboveBytes = 32 * 1024 * 1024;

const port = parentPort;
if (!port) throw new Error('sandbox worker: run as a worker thread');

let cached: { pages: number; module: QuickJSWASMModule } | undefined;

/** A module whose whole linear memory (engine, heap, stack) is at most `memoryBytes` (16 MiB at least). */
async function moduleFor(memoryBytes: number): Promise<QuickJSWASMModule> {
  const pages = Math.max(initialPages, Math.ceil(memoryBytes / pageBytes));
  if (cached?.pages !== pages) {
    const wasmMemory = new WebAssembly.Memory({ initial: initialPages, maximum: pages });
    cached = { pages, module: await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory })) };
  }
  return cached.module;
}

let nextAskId = 1;
const asks = new Map<number, { resolve: (value: string | null) => void; reject: (err: Error) => void }>();
const send = (message: FromWorker) => port.postMessage(message);

function ask(message: { type: 'library'; name: string } | { type: 'host'; name: string; argsJson: string }): Promise<string | null> {
  const id = nextAskId++;
  return new Promise((resolve, reject) => {
    asks.set(id, { resolve, reject });
    send({ ...message, id } as Ask);
  });
}

function answer(reply: AskReply): void {
  const waiting = asks.get(reply.id);
  if (!waiting) return;
  asks.delete(reply.id);
  if (reply.ok) waiting.resolve(reply.value ?? null);
  else waiting.reject(new Error(reply.error ?? 'host call failed'));
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') return answer(message);
  void (async () => {
    let done: RunDone;
    try {
      const quickjs = await moduleFor(message.memoryBytes);
      // The deadline starts once the engine is ready: a module compiled on a busy machine is not the script's time.
      send({ type: 'started' });
      const run = await runInQuickJS(quickjs, { ...message, deadlineAt: Date.now() + message.deadlineMs }, {
        library: async (name) => (await ask({ type: 'library', name })) ?? undefined,
        host: async (name, argsJson) => (await ask({ type: 'host', name, argsJson })) ?? 'null',
      });
      done = run.done;
      if (!run.engineHealthy || done.status === 'memory' || quickjs.getWasmMemory().buffer.byteLength > retireAboveBytes) cached = undefined;
    } catch (err) {
      // The engine itself failed (not the script): the next run gets a new module instance.
      done = { type: 'done', status: 'error', error: `sandbox engine fault: ${(err as Error).message}`, console: '' };
      cached = undefined;
    }
    asks.clear();
    send(done);
  })();
});

send({ type: 'ready' });
