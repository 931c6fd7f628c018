/**
 * The Streamable HTTP wire rules (MCP 2025-11-25 transports, older negotiated versions keeping
 * theirs), as pure functions: which response a POST gets, how a body becomes messages, and the
 * event id format that makes a stream resumable.
 */
import { classifyMessage } from '../jsonrpc-envelope.js';
import { protocolErrorCodes } from '../../../shared/mcp-tools/index.js';
import { headerDecisions } from '../../../shared/inbound/index.js';
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  ErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The codes our JSON-RPC answers use: the handlers' (protocolErrorCodes) plus the transport's own. */
export const jsonRpcCodes = {
  ...protocolErrorCodes,
  parseError: ErrorCode.ParseError,
  serverError: -32000,
  sessionNotFound: -32001,
} as const;

/** A refusal before any message reaches the server: HTTP status plus a JSON-RPC error without id. */
export interface WireRefusal {
  status: number;
  code: number;
  message: string;
}

export function jsonRpcError(code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/**
 * How a POST carrying requests may be answered, as its Accept header says: only as a stream, only
 * as JSON, or either, the stream preferred (`answerModeFor` picks for the POST's requests).
 */
export type ResponseMode = 'json' | 'sse' | 'sse-or-json';

/**
 * The form of a POST's answer. A client that takes either gets one JSON body for an initialize:
 * nothing relates to it (the session's server sends no notification or request of its own before
 * it is initialized), so a stream would carry its response alone. Every session starts so. Any
 * other single request is answered `json-first`: as one JSON body when its response is ready
 * within the transport's window and nothing else was sent for it before, else on a stream that
 * opens then (`jsonWindow` false: always a stream). A batch (older versions) is streamed.
 */
export function answerModeFor(mode: ResponseMode, requests: readonly { method: string }[], jsonWindow: boolean): 'json' | 'sse' | 'json-first' {
  if (mode !== 'sse-or-json') return mode;
  if (requests.length !== 1) return 'sse';
  if (requests[0]!.method === 'initialize') return 'json';
  return jsonWindow ? 'json-first' : 'sse';
}

const eventStream = 'text/event-stream';
const json = 'application/json';

/**
 * The quality an Accept header gives a media type (RFC 9110 12.5.1): the q of the most specific
 * range that matches it (`type/subtype`, then `type/*`, then `*\/*`), 0 when none does.
 */
export function acceptQuality(accept: string, mediaType: string): number {
  const [type] = mediaType.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const specificity = range === mediaType ? 2 : range === `${type}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < 0 || (best && best.specificity >= specificity)) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { specificity, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 };
  }
  return best?.q ?? 0;
}

/**
 * The client's Accept header decides: a stream when it accepts `text/event-stream` at least as
 * much as JSON (the richer answer: notifications and elicitation travel with the response), and
 * then `sse-or-json` when it accepts JSON too; JSON when it prefers JSON or accepts only JSON. A
 * missing header is served leniently as a stream —
 * clients in the wild send nothing, `*\/*` or one of the two (MCP notes section 4); a header that
 * accepts neither is refused with 406.
 */
export function responseModeFor(accept: string | undefined): ResponseMode | WireRefusal {
  if (accept === undefined || accept.trim() === '') return 'sse';
  return decideResponseMode(accept);
}

const decideResponseMode = headerDecisions((accept: string): ResponseMode | WireRefusal => {
  const stream = acceptQuality(accept, eventStream);
  const body = acceptQuality(accept, json);
  if (stream === 0 && body === 0) {
    return { status: 406, code: jsonRpcCodes.serverError, message: 'Not Acceptable: accept application/json or text/event-stream' };
  }
  return body > stream ? 'json' : body > 0 ? 'sse-or-json' : 'sse';
});

/** A GET opens a stream; refused only when the client explicitly cannot take one. */
export function acceptsEventStream(accept: string | undefined): boolean {
  return accept === undefined || accept.trim() === '' || acceptQuality(accept, eventStream) > 0;
}

/** The JSON-RPC batch limit of older protocol versions (as the SDK's own transport). */
export const maxBatchSize = 100;

/** Batches were removed in 2025-06-18; sessions negotiated earlier keep them. */
export function batchesAllowed(protocolVersion: string): boolean {
  return protocolVersion < '2025-06-18';
}

export function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { method: string; id: RequestId } {
  return 'method' in message && 'id' in message;
}

export function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && ('result' in message || 'error' in message);
}

export function isInitialize(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'initialize' && 'id' in message;
}

/**
 * A POST body as messages. One object is one message; an array is a batch, refused for sessions
 * negotiated at 2025-06-18 or later and when empty; initialize must travel alone.
 */
export function messagesOf(body: unknown, protocolVersion: string): { messages: JSONRPCMessage[]; batch: boolean } | WireRefusal {
  const invalid = (message: string): WireRefusal => ({ status: 400, code: jsonRpcCodes.invalidRequest, message });
  if (!Array.isArray(body)) {
    const envelope = classifyMessage(body);
    return envelope.ok ? { messages: [envelope.message], batch: false } : invalid(`Invalid Request: ${envelope.reason}`);
  }
  if (body.length === 0) return invalid('Invalid Request: empty batch');
  if (!batchesAllowed(protocolVersion)) {
    return invalid(`Invalid Request: JSON-RPC batches are not supported by protocol version ${protocolVersion}; send one message per POST`);
  }
  if (body.length > maxBatchSize) return invalid(`Invalid Request: a batch holds at most ${maxBatchSize} messages`);
  const refused = body.map(classifyMessage).find((e) => !e.ok);
  if (refused && !refused.ok) return invalid(`Invalid Request: a batch element is not a JSON-RPC 2.0 message (${refused.reason})`);
  if (body.length > 1 && body.some(isInitialize)) return invalid('Invalid Request: initialize must be sent alone');
  return { messages: body, batch: true };
}

/** The version a request speaks: its MCP-Protocol-Version header, else the 2025-03-26 default. */
export function headerProtocolVersion(header: string | undefined): string | WireRefusal {
  if (header === undefined) return DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return header;
  return {
    status: 400,
    code: jsonRpcCodes.serverError,
    message: `Bad Request: unsupported MCP-Protocol-Version ${header} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  };
}

/** What an initialize negotiates: the client's version when supported, else our latest (SDK rule). */
export function requestedProtocolVersion(initialize: JSONRPCMessage, latest: string): string {
  const requested = (initialize as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : latest;
}

/** Priming events, `retry` and server-closed polling belong to 2025-11-25 (older clients choke on empty data). */
export function primesStreams(protocolVersion: string): boolean {
  return protocolVersion >= '2025-11-25';
}

/**
 * Event ids are `<stream id>.<sequence>`: unique across the session's streams and naming the
 * stream they resume (MCP notes 1.8). Sequence 0 is the priming event.
 */
export function eventId(streamId: string, seq: number): string {
  return `${streamId}.${seq}`;
}

const eventIdPattern = /^([A-Za-z0-9_-]{1,64})\.(\d{1,15})$/;

export function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const match = eventIdPattern.exec(id);
  return match ? { streamId: match[1]!, seq: Number(match[2]) } : undefined;
}
