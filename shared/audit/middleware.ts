/** The tools/call middleware that writes one audit entry per call. */
import type { CallToolResult, ToolMiddleware, ToolRefusalHook } from '../mcp-tools/index.js';
import { toolCallEntry } from './entry.js';
import type { AuditLog, Clock } from './log.js';

/**
 * Records every call that reaches it: who (subject, email, auth type, persona, session), what
 * (tool, arguments — redacted by the writer), how long, and how it ended (`error` for an `isError`
 * result or a throw, which is rethrown after recording). Put it first in the middleware list so the
 * duration and outcome cover the other middlewares (gating, elicitation) too.
 *
 * In `drop` mode the entry is enqueued synchronously and the result returns at once; in `block`
 * mode the middleware awaits room in the queue, so a full queue slows callers down instead of
 * losing records. Recording itself never fails a call.
 */
export function auditMiddleware(audit: AuditLog, opts: { clock?: Clock } = {}): ToolMiddleware {
  // Audit off: nothing to time or build.
  if (!audit.enabled) return (_call, next) => next();
  const clock = opts.clock ?? Date.now;
  return async ({ tool, args, ctx }, next) => {
    const startedAt = clock();
    let result: CallToolResult | undefined;
    let failure: { error: unknown } | undefined;
    try {
      result = await next();
    } catch (error) {
      failure = { error };
    }
    const entry = toolCallEntry({
      tool: tool.name,
      args,
      ...(tool.contentArguments ? { contentArguments: tool.contentArguments } : {}),
      ctx,
      startedAt,
      durationMs: clock() - startedAt,
      ...(failure ? { error: failure.error } : { result: result! }),
    });
    if (audit.mode === 'block') await audit.recordAsync(entry);
    else audit.record(entry);
    if (failure) throw failure.error;
    return result!;
  };
}

/**
 * Records calls refused before any middleware ran: an unknown tool, or one the persona may not use,
 * as `denied`; arguments the tool's schema rejected as `error`, with the validation message. The
 * arguments are redacted like any others, and a known tool's content arguments are digested.
 */
export function auditRefusals(audit: AuditLog, opts: { clock?: Clock } = {}): ToolRefusalHook | undefined {
  if (!audit.enabled) return undefined;
  const clock = opts.clock ?? Date.now;
  return ({ name, rawArgs, ctx, tool, reason, message }) =>
    audit.record(
      toolCallEntry({
        tool: name,
        args: rawArgs,
        ...(tool?.contentArguments ? { contentArguments: tool.contentArguments } : {}),
        ctx,
        startedAt: clock(),
        durationMs: 0,
        ...(reason === 'invalid_arguments'
          ? { outcome: 'error' as const, errorText: message }
          : { outcome: 'denied' as const, errorText: 'tool not available to this caller' }),
      }),
    );
}
