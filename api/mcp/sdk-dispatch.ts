/**
 * Where the SDK's protocol layer repeats checks our side has already made, per message (issue 41,
 * the MCP request path). Both shortcuts keep the SDK's own handling of every message; they only
 * skip zod parses whose answer is known:
 *
 * - Protocol.connect's dispatcher tells a request from a notification or a response by parsing
 *   the message against up to four strict zod schemas (~3% of a tools/call's CPU). Our envelope
 *   check (jsonrpc-envelope.ts) accepts exactly those shapes and costs a few property reads, so a
 *   message it accepts goes straight to the protocol's handler of its kind; any other message is
 *   left to the SDK's dispatcher, which reports it as before.
 * - Server.setRequestHandler wraps tools/call to parse the request a second time (Protocol has
 *   parsed it against the same schema) and our own result against CallToolResultSchema (~2%).
 *   Our results are typed CallToolResult values built by shared/mcp-tools, so the handler is
 *   registered on the protocol directly, with one parse of the request refused as the wrapper
 *   refuses it. (The wrapper's other branch, task-augmented calls, is unused: the server offers
 *   no tasks.)
 *
 * Both reach members the SDK does not export as API (`_onrequest`, `_onnotification`,
 * `_onresponse`; Protocol's setRequestHandler under Server's is public); when an SDK version
 * lacks the handlers, its own dispatcher is used. mcp-sdk-dispatch.test.ts holds the shortcuts to the SDK's answers.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolRequest, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { classifyMessage } from './jsonrpc-envelope.js';

type MessageExtra = Parameters<NonNullable<Transport['onmessage']>>[1];

interface ProtocolHandlers {
  _onrequest(message: JSONRPCMessage, extra: MessageExtra): void;
  _onnotification(message: JSONRPCMessage): void;
  _onresponse(message: JSONRPCMessage): void;
}

function protocolHandlers(server: Server): ProtocolHandlers | undefined {
  const candidate = server as unknown as Partial<ProtocolHandlers>;
  return typeof candidate._onrequest === 'function' && typeof candidate._onnotification === 'function' && typeof candidate._onresponse === 'function'
    ? (candidate as ProtocolHandlers)
    : undefined;
}

/**
 * The dispatcher to install in place of `sdkDispatch` (what Protocol.connect set as the
 * transport's onmessage): messages of a known kind go to the protocol's handler of that kind.
 */
export function directDispatch(server: Server, sdkDispatch: Transport['onmessage']): Transport['onmessage'] {
  const handlers = protocolHandlers(server);
  if (!handlers || !sdkDispatch) return sdkDispatch;
  return (message, extra) => {
    const envelope = classifyMessage(message);
    if (!envelope.ok) sdkDispatch(message, extra);
    else if (envelope.kind === 'request') handlers._onrequest(message, extra);
    else if (envelope.kind === 'notification') handlers._onnotification(message);
    else handlers._onresponse(message);
  };
}

type CallToolHandler = (request: CallToolRequest, extra: Parameters<Parameters<Server['setRequestHandler']>[1]>[1]) => Promise<CallToolResult>;

/** Protocol's setRequestHandler, as Server's override hides it. */
type ProtocolSetRequestHandler = (
  this: Server,
  schema: typeof toolCallMethod,
  handler: (request: unknown, extra: Parameters<CallToolHandler>[1]) => Promise<CallToolResult>,
) => void;

/** What the protocol checks before a tools/call reaches `setToolCallHandler`'s own parse: its method. */
const toolCallMethod = z.looseObject({ method: z.literal('tools/call') });

/**
 * Registers `handler` for tools/call on the protocol itself: the request parsed once, refused as
 * Server's wrapper refuses it (InvalidParams, "Invalid tools/call request: …"), the result sent
 * as the handler made it.
 */
export function setToolCallHandler(server: Server, handler: CallToolHandler): void {
  (Protocol.prototype.setRequestHandler as unknown as ProtocolSetRequestHandler).call(server, toolCallMethod, (request, extra) => {
    const parsed = CallToolRequestSchema.safeParse(request);
    if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call request: ${parsed.error.message}`);
    return handler(parsed.data, extra);
  });
}

/**
 * Closes an SDK server or transport without the stack traces the SDK's close builds: an McpError
 * for the outgoing requests still pending and an abort of every request handler still registered
 * (a per-request server's answered handler is, for a few microtasks more), each capturing a stack
 * that nothing reads — ~55 µs of every stateless request, ~40 µs of every session's end. Pending
 * requests still fail with the same code and message. The close runs synchronously up to the
 * SDK's onclose (Protocol.close → our transport's close → Protocol's onclose), so stack traces
 * are off for exactly that call. Never rejects: a close that fails has nothing left to close.
 */
export function closeWithoutStackTraces(closable: { close(): Promise<void> }): Promise<void> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return closable.close().catch(() => undefined);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
