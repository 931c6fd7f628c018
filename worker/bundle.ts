import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Logger } from '../shared/logging/index.js';

/** workflows/index: the .ts source when run through tsx/vitest, the compiled .js under dist/. */
export function workflowsEntry(): string {
  for (const ext of ['.ts', '.js']) {
    const path = fileURLToPath(new URL(`../workflows/index${ext}`, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('workflows/index not found next to worker/');
}

let cached: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * The workflow bundle, built once per process and reused by every worker and replay: webpack takes
 * seconds, so rebuilding per worker start would make startup (and tests) slow. A failed build is
 * not cached, so the next caller retries.
 */
export function workflowBundle(log?: Pick<Logger, 'warn' | 'error'>): Promise<WorkflowBundleWithSourceMap> {
  if (!cached) {
    cached = bundleWorkflowCode({ workflowsPath: workflowsEntry(), logger: bundlerLogger(log) }).catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
  }
  return cached;
}

/** The bundler reports progress at info level; only its warnings and errors are worth a log line. */
function bundlerLogger(log?: Pick<Logger, 'warn' | 'error'>) {
  const none = () => undefined;
  return {
    log: none,
    trace: none,
    debug: none,
    info: none,
    warn: (message: string, meta?: Record<string, unknown>) => (log ? log.warn({ ...meta }, message) : console.warn(message, meta ?? '')),
    error: (message: string, meta?: Record<string, unknown>) => (log ? log.error({ ...meta }, message) : console.error(message, meta ?? '')),
  };
}
