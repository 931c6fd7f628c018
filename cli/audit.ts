import type { PlatformConfig } from '../shared/config/index.js';
import type { Db } from '../shared/db/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { Metrics } from '../shared/metrics/index.js';
import { auditMiddleware, auditRefusals, createAuditLog, type AuditLog } from '../shared/audit/index.js';
import type { ToolMiddleware, ToolRefusalHook } from '../shared/mcp-tools/index.js';

/** The audit log of tool calls and the two pipeline hooks that feed it. */
export interface ToolCallAudit {
  log: AuditLog;
  /** Goes first among the surface's middlewares, so its duration and outcome cover the others. */
  middleware: ToolMiddleware;
  /** Records refused calls (unavailable tool, invalid arguments); absent when auditing is off. */
  onRefused?: ToolRefusalHook;
}

/**
 * Tool-call auditing as every MCP role wires it (api, dev, stdio): one place, so no role can
 * forget the refusals or put the middleware anywhere but first. A no-op without a database or
 * with either audit switch off. Close `log` at shutdown, after the last call finished.
 */
export function toolCallAudit(opts: { config: PlatformConfig; log: Logger; db?: Db; metrics?: Metrics }): ToolCallAudit {
  const log = createAuditLog({
    config: opts.config,
    ...(opts.db ? { db: opts.db } : {}),
    log: opts.log.child({ component: 'audit' }),
    ...(opts.metrics ? { metrics: opts.metrics } : {}),
  });
  const onRefused = auditRefusals(log);
  return { log, middleware: auditMiddleware(log), ...(onRefused ? { onRefused } : {}) };
}
