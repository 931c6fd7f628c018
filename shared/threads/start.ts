/**
 * A worker thread running one of our modules: the compiled .js when this code is compiled, or the
 * .ts source through tsx's loader when it runs from sources (tsx, vitest), where a worker thread
 * does not inherit the loader.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts `name` (a module beside `from`, without its extension) in a worker thread. `from` is the
 * caller's `import.meta.url`: the module's extension is the caller's own.
 */
export function startModuleThread(from: string, name: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const self = fileURLToPath(from);
  const ext = path.extname(self);
  const file = path.join(path.dirname(self), `${name}${ext}`);
  if (ext !== '.ts') return new Worker(file, options);
  // tsx's ESM entry sits beside the CommonJS one require.resolve finds; vitest has no import.meta.resolve.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(pathToFileURL(file).href)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
