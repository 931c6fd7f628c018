import type { PlatformConfig } from '../shared/config/index.js';
import type { Logger } from '../shared/logging/index.js';
import { auditsToolCalls } from '../shared/audit/index.js';
import { buildMcpSurface } from '../api/mcp/surface.js';
import { serveStdio } from '../api/mcp/stdio.js';
import { toolCallAudit } from './audit.js';
import { openDatabase } from './services.js';
import { buildToolkits, toolkitEnrichment } from './toolkits.js';
import { onSignals } from './context.js';
import { createKnowledge } from '../shared/knowledge/index.js';

export interface StdioRole {
  /** Resolves when the client closes stdin. */
  served: Promise<void>;
  /** Writes the queued audit rows and releases toolkits and database. Idempotent. */
  stop(): Promise<void>;
}

/**
 * `platform stdio`: MCP over stdin/stdout as the local operator. Tool calls are audited exactly as
 * in the api role when a database is configured and both audit switches are on; the knowledge
 * tools are served with knowledge.enabled. The database is opened (and migrated) only for those.
 */
export async function startStdioRole(opts: { config: PlatformConfig; log: Logger }): Promise<StdioRole> {
  const { config, log } = opts;
  const db = auditsToolCalls(config) || config.knowledge.enabled ? await openDatabase(config, log) : undefined;
  const audit = toolCallAudit({ config, log, ...(db ? { db } : {}) });
  let toolkits;
  try {
    // No HTTP listener here: presigned filesystem URLs point at portal.public_base_url or server.address.
    toolkits = await buildToolkits(config, log, { publicUrl: () => `http://${config.server.address.replace(/^:/, '127.0.0.1:')}` });
  } catch (error) {
    await db?.end();
    throw error;
  }
  const enrichment = toolkitEnrichment(config, log, toolkits, 'none');
  const knowledge = createKnowledge({ config, ...(db ? { db } : {}), catalog: toolkits.catalog.connections });
  const surface = buildMcpSurface({
    config,
    log,
    tools: [...toolkits.tools, ...(knowledge?.tools ?? [])],
    elicitationTriggers: toolkits.elicitationTriggers,
    descriptionOverrides: toolkits.descriptionOverrides,
    middlewares: [audit.middleware],
    ...(audit.onRefused ? { onRefused: audit.onRefused } : {}),
    ...(enrichment.middleware ? { innerMiddlewares: [enrichment.middleware] } : {}),
    ...(enrichment.resources ? { templatedResources: [enrichment.resources] } : {}),
    ...(knowledge && config.knowledge.apply.enabled ? { reviewQueue: () => knowledge.insights.queue() } : {}),
    hasDatabase: db !== undefined,
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await audit.log.close();
      await toolkits.close();
      await db?.end();
    })());
  return { served: serveStdio(surface), stop };
}

/**
 * Serves stdio until the client is done, then exits: `platform stdio`, and `platform serve` with
 * `server.transport: stdio`.
 */
export async function runStdioRole(config: PlatformConfig, log: Logger): Promise<never> {
  const stdio = await startStdioRole({ config, log });
  // A client that stops us by signal instead of closing stdin still gets its audit rows written.
  onSignals(() => stdio.stop(), log);
  await stdio.served;
  await stdio.stop();
  process.exit(0);
}
