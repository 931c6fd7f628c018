import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../shared/logging/index.js';

const methods: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * Routes the SDK's own logs (worker state, workflow `log.*`) into the platform's pino logger, and
 * turns off the SDK's signal handlers: the process owner (the CLI) decides when to shut down and
 * calls `shutdown()`, so `platform dev` can stop api and worker in order.
 * The Runtime is a process singleton; the first worker installs it and later calls keep it.
 */
export function installTemporalRuntime(log: Logger): void {
  if (Runtime._instance !== undefined) return;
  const sdkLog = log.child({ component: 'temporal-sdk' });
  try {
    Runtime.install({
      logger: new DefaultLogger('INFO', (entry) => sdkLog[methods[entry.level]]({ ...entry.meta }, entry.message)),
      shutdownSignals: [],
    });
  } catch {
    // Installed concurrently or already instantiated elsewhere: keep that one.
  }
}
