/**
 * Engines: QuickJS module instances, each with its own WebAssembly linear memory, and the warm
 * handler instance each keeps (quickjs-run.ts). The memory ceiling is the linear memory's
 * `maximum`: this build's allocator reports 8 bytes per allocation to QuickJS's own accounting
 * (`setMemoryLimit` sees a 20 MB array of strings as 160 KB), so only the maximum bounds a run for
 * real; an engine therefore serves one run at a time and one ceiling.
 */
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import { WarmSlot } from './quickjs-run.js';

const pageBytes = 64 * 1024;
/** The linear memory the QuickJS build starts with (its declared minimum). */
const initialPages = 256;
/** An engine grown past this by a run is not kept (WebAssembly memory never shrinks). */
export const retireAboveBytes = 32 * 1024 * 1024;

export interface Engine {
  /** Its ceiling, in 64 KiB pages. */
  pages: number;
  module: QuickJSWASMModule;
  warm: WarmSlot;
}

/** The pages of an engine whose whole linear memory (engine, heap, stack) is at most `memoryBytes` (16 MiB at least). */
export function enginePages(memoryBytes: number): number {
  return Math.max(initialPages, Math.ceil(memoryBytes / pageBytes));
}

export async function newEngine(pages: number): Promise<Engine> {
  const wasmMemory = new WebAssembly.Memory({ initial: initialPages, maximum: pages });
  return { pages, module: await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory })), warm: new WarmSlot() };
}

/** Whether an engine may serve another run after one that ended so: healthy, within memory, not grown past retireAboveBytes. */
export function keepable(engine: Engine, end: { engineHealthy: boolean; done: { status: string } }): boolean {
  return end.engineHealthy && !engine.warm.spent && end.done.status !== 'memory' && engine.module.getWasmMemory().buffer.byteLength <= retireAboveBytes;
}
