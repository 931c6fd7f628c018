/**
 * How catalog tools answer: JSON text plus the same object as structuredContent; failures as a
 * result with isError, the message as text (behind the write prefix `Create <what> failed: …`)
 * and `structuredContent.error = {code, category, message, retryable}`.
 */
import type { Logger } from '../logging/index.js';
import { jsonResult, type CallToolResult } from '../mcp-tools/index.js';
import { CatalogError, CatalogHttpError, type CatalogErrorKind } from './errors.js';

const codes: Record<CatalogErrorKind, { code: string; category: string; retryable: boolean }> = {
  invalid: { code: 'invalid_arguments', category: 'validation', retryable: false },
  not_found: { code: 'not_found', category: 'not_found', retryable: false },
  unauthenticated: { code: 'unauthenticated', category: 'auth', retryable: false },
  timeout: { code: 'timeout', category: 'timeout', retryable: true },
  cancelled: { code: 'cancelled', category: 'cancelled', retryable: false },
  connection: { code: 'connection_error', category: 'connection', retryable: true },
  unsupported: { code: 'feature_unavailable', category: 'unsupported', retryable: false },
  http: { code: 'catalog_error', category: 'catalog', retryable: false },
  graphql: { code: 'catalog_error', category: 'catalog', retryable: false },
};

export function catalogErrorResult(error: unknown, log: Logger, prefix = ''): CallToolResult {
  if (!(error instanceof CatalogError)) {
    log.error({ err: error }, 'catalog tool failed unexpectedly');
    return errorResult('internal_error', 'internal', `${prefix}the catalog request failed unexpectedly`, false);
  }
  const c = codes[error.kind];
  if (error.kind === 'invalid' && error.message.endsWith('parameter is required')) return errorResult('missing_required_parameter', 'validation', error.message, false);
  // Argument errors are the agent's to fix: no prefix, as the anchor answers them.
  const text = error.kind === 'invalid' ? error.message : `${prefix}${error.message}`;
  const retryable = c.retryable || (error instanceof CatalogHttpError && error.status >= 500);
  return errorResult(c.code, c.category, text, retryable);
}

export function errorResult(code: string, category: string, message: string, retryable: boolean): CallToolResult {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: { code, category, message, retryable } }, isError: true };
}

/** Runs a tool body: its object as the JSON result, any failure as the error result. */
export async function answer(log: Logger, body: () => Promise<object>, prefix = ''): Promise<CallToolResult> {
  try {
    return jsonResult((await body()) as Record<string, unknown>);
  } catch (error) {
    return catalogErrorResult(error, log, prefix);
  }
}
