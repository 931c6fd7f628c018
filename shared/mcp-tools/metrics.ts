import type { Metrics } from '../metrics/index.js';
import type { ToolMiddleware } from './pipeline.js';

/** Counts tools/call by tool and outcome and times them (`platform_mcp_tool_calls_total`, `…_duration_seconds`). */
export function toolMetricsMiddleware(metrics: Pick<Metrics, 'toolCalls' | 'toolDuration'>): ToolMiddleware {
  return async ({ tool }, next) => {
    const stop = metrics.toolDuration.startTimer({ tool: tool.name });
    let outcome: 'ok' | 'error' = 'error';
    try {
      const result = await next();
      if (!result.isError) outcome = 'ok';
      return result;
    } finally {
      stop();
      metrics.toolCalls.inc({ tool: tool.name, outcome });
    }
  };
}
