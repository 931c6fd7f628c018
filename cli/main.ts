import cluster from 'node:cluster';
import { Command } from 'commander';
import { ConfigError, loadConfigFile, type ConfigIssue, type PlatformConfig } from '../shared/config/index.js';
import { createPool, migrate } from '../shared/db/index.js';
import { commandLogger, configOrExit, exitOnConfigError, onSignals, type CommandOptions } from './context.js';
import { openDatabase, openTemporal, startApiRole, startWorkerRole } from './services.js';
import { devBanner, startDev } from './dev.js';
import { runStdioRole } from './stdio.js';
import { startupProgress } from './progress.js';
import { superviseApiWorkers } from './cluster.js';
import { openMcpApps } from '../shared/mcp-apps/index.js';

const configHelp =
  'configuration file (default: $PLATFORM_CONFIG, else ./platform.yaml; without a file every key takes its default)';

const program = new Command('platform')
  .description('Data platform for AI agents: MCP server, REST API and durable jobs')
  .option('-c, --config <file>', configHelp)
  .showHelpAfterError();

function options(command: Command): CommandOptions {
  return command.optsWithGlobals<CommandOptions>();
}

function mcpAppFileIssues(config: PlatformConfig): ConfigIssue[] {
  try {
    openMcpApps(config.mcpapps);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
}

async function fail(error: unknown): Promise<never> {
  // A problem found while starting (an MCP App's missing assets) reads like one found at load.
  if (error instanceof ConfigError) return exitOnConfigError(error);
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

program
  .command('serve')
  .description(
    'Serve MCP the way server.transport says: stdio (as `platform stdio`), or http / sse — the api role: Streamable HTTP MCP at /mcp ' +
      '(and legacy SSE for sse), health, metrics; server.workers api processes on one address',
  )
  .action(async (_opts, command: Command) => {
    const log = commandLogger();
    const { config } = configOrExit(options(command), log);
    try {
      // Missing MCP App assets stop the start before anything runs (a cluster's workers, a database).
      openMcpApps(config.mcpapps);
      if (config.server.transport === 'stdio') return await runStdioRole(config, log);
      // The primary of a cluster only supervises; each worker runs the api role below.
      if (config.server.workers > 1 && cluster.isPrimary) return superviseApiWorkers({ config, log });
      const db = await openDatabase(config, log);
      const temporal = await openTemporal(config);
      const api = await startApiRole({ config, log, ...(db ? { db } : {}), ...(temporal ? { temporal } : {}) });
      log.info({ url: `${api.url}/mcp`, pid: process.pid, ...(cluster.worker ? { worker: cluster.worker.id } : {}) }, 'api listening');
      onSignals(async () => {
        await api.stop();
        await temporal?.close();
        await db?.end();
      }, log);
    } catch (error) {
      await fail(error);
    }
  });

program
  .command('worker')
  .description('Run the worker role: Temporal worker on the platform task queues; registers Schedules')
  .action(async (_opts, command: Command) => {
    const log = commandLogger();
    const { config } = configOrExit(options(command), log);
    try {
      const db = await openDatabase(config, log);
      if (!db) throw new Error('database.dsn is required for the worker');
      const temporal = await openTemporal(config);
      if (!temporal) throw new Error('temporal.address is required for the worker');
      const worker = await startWorkerRole({ config, log, db, temporal });
      onSignals(async () => {
        await worker.shutdown();
        await temporal.close();
        await db.end();
      }, log);
    } catch (error) {
      await fail(error);
    }
  });

program
  .command('stdio')
  .description('Serve MCP over stdin/stdout for a local client (no MCP authentication: runs as the operator)')
  .action(async (_opts, command: Command) => {
    const log = commandLogger();
    const { config } = configOrExit(options(command), log);
    try {
      openMcpApps(config.mcpapps);
      await runStdioRole(config, log);
    } catch (error) {
      await fail(error);
    }
  });

program
  .command('dev')
  .description('Run api + worker in one process with embedded defaults (Postgres, Temporal dev server, admin key) — what `npm start` runs')
  .action(async (_opts, command: Command) => {
    const log = commandLogger();
    const loaded = configOrExit(options(command), log);
    try {
      // A step running past 2 s (PLATFORM_DEV_PROGRESS_AFTER_MS) says so on the terminal.
      const afterMs = Number(process.env.PLATFORM_DEV_PROGRESS_AFTER_MS ?? 2_000);
      const progress = startupProgress({ write: (line) => process.stderr.write(line), afterMs: Number.isFinite(afterMs) ? afterMs : 2_000 });
      // Before the embedded Postgres and Temporal dev server start: missing MCP App assets stop it here.
      openMcpApps(loaded.config.mcpapps);
      const dev = await startDev(loaded, log, progress);
      process.stdout.write(devBanner(dev));
      onSignals(() => dev.stop(), log);
    } catch (error) {
      await fail(error);
    }
  });

program
  .command('migrate')
  .description('Apply database migrations (under an advisory lock) and exit')
  .action(async (_opts, command: Command) => {
    const log = commandLogger();
    const { config } = configOrExit(options(command), log);
    if (!config.database.dsn) await fail(new Error('database.dsn is not set'));
    const db = createPool({ dsn: config.database.dsn!, maxOpenConns: 2 });
    try {
      const result = await migrate(db, { log });
      process.stdout.write(`applied ${result.applied.length} migration(s); ${result.alreadyApplied.length} already applied\n`);
    } catch (error) {
      await db.end();
      await fail(error);
    }
    await db.end();
  });

program
  .command('config')
  .description('Configuration tools')
  .command('check')
  .argument('[file]', 'file to check (default: --config, $PLATFORM_CONFIG or ./platform.yaml)')
  .description('Validate a platform.yaml: prints every problem with its key path; exits non-zero when any is found')
  .action((file: string | undefined, _opts, command: Command) => {
    const target = file ?? options(command).config ?? process.env.PLATFORM_CONFIG ?? 'platform.yaml';
    try {
      const { config, warnings } = loadConfigFile(target);
      for (const w of warnings) process.stdout.write(`warning: ${w.path}: ${w.message}\n`);
      // The file may be checked away from where it runs: missing MCP App assets only warn here (a start refuses them).
      for (const issue of mcpAppFileIssues(config)) process.stdout.write(`warning: ${issue.path}: ${issue.message} (here; the start refuses it)\n`);
      process.stdout.write(`${target}: ok\n`);
    } catch (error) {
      if (!(error instanceof ConfigError)) return void fail(error);
      for (const issue of error.issues) process.stdout.write(`${issue.path}: ${issue.message}\n`);
      process.stdout.write(`${target}: ${error.issues.length} problem(s)\n`);
      process.exit(2);
    }
  });

await program.parseAsync(process.argv);
