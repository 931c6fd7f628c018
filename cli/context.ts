import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, defaultConfig, loadConfigFile, type ConfigIssue, type PlatformConfig } from '../shared/config/index.js';
import { createLogger, type Logger } from '../shared/logging/index.js';

export interface CommandOptions {
  config?: string;
}

export interface LoadedConfig {
  config: PlatformConfig;
  warnings: ConfigIssue[];
  /** The file read, or undefined when the default file is absent and built-in defaults apply. */
  file?: string;
}

/**
 * `--config FILE`, else env PLATFORM_CONFIG, else ./platform.yaml. A file named explicitly must
 * exist; the default file may be absent (then every key takes its default).
 */
export function loadCommandConfig(options: CommandOptions, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const named = options.config ?? env.PLATFORM_CONFIG;
  const file = resolve(named ?? 'platform.yaml');
  let loaded: LoadedConfig;
  if (!named && !existsSync(file)) loaded = { config: defaultConfig(), warnings: [] };
  else loaded = { ...loadConfigFile(file, env), file };
  if (env.PLATFORM_DATA_DIR) loaded.config.data_dir = env.PLATFORM_DATA_DIR;
  loaded.config.data_dir = resolve(loaded.config.data_dir);
  return loaded;
}

/** Prints every configuration problem with its key path and exits non-zero. */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`invalid configuration:\n${error.issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}\n`);
    process.exit(2);
  }
  throw error;
}

/** Loads the config or exits naming the problems; warnings are logged once. */
export function configOrExit(options: CommandOptions, log: Logger): LoadedConfig {
  try {
    const loaded = loadCommandConfig(options);
    for (const w of loaded.warnings) log.warn({ key: w.path }, w.message);
    return loaded;
  } catch (error) {
    return exitOnConfigError(error);
  }
}

/** Logs go to stderr, asynchronously, so stdout stays free (it is the protocol channel for `platform stdio`). */
export function commandLogger(): Logger {
  return createLogger();
}

/** Runs `stop` once on SIGINT/SIGTERM, then exits. */
export function onSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
