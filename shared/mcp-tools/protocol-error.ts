import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error answer thrown by our MCP request handlers. The SDK's protocol layer answers any
 * thrown error with `{code, message, data}` taken from it (code -32603 when it has no integer code).
 * The SDK's own McpError puts `MCP error <code>: ` in front of its message, and SDK clients put the
 * same prefix in front again when they raise the answer, so clients showed it twice. This error's
 * message is exactly what the caller is told.
 */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

/** The JSON-RPC and MCP error codes our handlers answer with. */
export const protocolErrorCodes = {
  invalidRequest: ErrorCode.InvalidRequest,
  invalidParams: ErrorCode.InvalidParams,
  internalError: ErrorCode.InternalError,
  /** MCP's "resource not found" (resources/read). */
  resourceNotFound: -32002,
} as const;
