/**
 * The `/mcp` path item of /api/openapi.json: MCP Streamable HTTP (protocol 2025-06-18 and later)
 * described as far as OpenAPI can. The route itself (streamable.ts) is one handler for the three
 * methods and reads its JSON-RPC body unvalidated, so its documentation is written here rather
 * than as a route schema (which Fastify would enforce).
 */
import { headerSecurity } from '../http/openapi.js';

const jsonRpcMessage = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request, notification or response (the MCP schema defines the methods).',
  required: ['jsonrpc'],
  properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' }, params: { type: 'object' } },
  additionalProperties: true,
};
const jsonRpcError = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } },
  },
};
const sseStream = { type: 'string', description: 'Server-sent events; each `data:` line is one JSON-RPC message.' };

const sessionIdHeader = {
  name: 'Mcp-Session-Id',
  in: 'header',
  required: false,
  description: 'The session the server assigned in its answer to `initialize`; required on every later request of a stateful session.',
  schema: { type: 'string' },
};
const protocolVersionHeader = {
  name: 'MCP-Protocol-Version',
  in: 'header',
  required: false,
  description: 'The protocol version negotiated at initialization (2025-03-26 assumed when absent).',
  schema: { type: 'string', example: '2025-06-18' },
};

function failure(description: string) {
  return { description, content: { 'application/json': { schema: jsonRpcError } } };
}

const refusals = {
  401: {
    description: 'No valid credential. `WWW-Authenticate: Bearer` names the protected resource metadata (RFC 9728) when an authorization server is configured.',
    headers: { 'WWW-Authenticate': { description: 'Bearer challenge, with `resource_metadata` when available', schema: { type: 'string' } } },
    content: { 'application/json': { schema: jsonRpcError } },
  },
  403: failure('The Origin is not allowed, or the session belongs to another caller'),
  404: failure('The session is unknown or has ended: start a new one with `initialize`'),
};

export const mcpPathItem = {
  post: {
    operationId: 'postMcpMessage',
    summary: 'Send MCP JSON-RPC messages',
    description:
      'Sends one JSON-RPC message or a batch. The `Accept` header must list both `application/json` and `text/event-stream`. ' +
      'Requests are answered with JSON or with an SSE stream that ends after the last response; notifications and responses alone get 202. ' +
      'The answer to `initialize` carries the `Mcp-Session-Id` header of a new session (stateful mode).',
    tags: ['mcp'],
    security: headerSecurity,
    parameters: [sessionIdHeader, protocolVersionHeader],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { oneOf: [jsonRpcMessage, { type: 'array', items: jsonRpcMessage, minItems: 1 }] } } },
    },
    responses: {
      200: {
        description: 'The responses to the requests sent',
        headers: { 'Mcp-Session-Id': { description: 'Set on the answer to `initialize`', schema: { type: 'string' } } },
        content: { 'application/json': { schema: { oneOf: [jsonRpcMessage, { type: 'array', items: jsonRpcMessage }] } }, 'text/event-stream': { schema: sseStream } },
      },
      202: { description: 'Notifications or responses accepted; nothing to answer' },
      400: failure('Malformed JSON-RPC, a missing Mcp-Session-Id, or a second `initialize`'),
      ...refusals,
      406: failure('The Accept header does not list both application/json and text/event-stream'),
      413: failure('The body is larger than server.body_limit'),
    },
  },
  get: {
    operationId: 'openMcpStream',
    summary: 'Open the MCP server-to-client event stream',
    description:
      "Opens the session's standalone SSE stream for server-initiated messages (one per session), or resumes a stream with `Last-Event-ID`. " +
      'The `Accept` header must list `text/event-stream`.',
    tags: ['mcp'],
    security: headerSecurity,
    parameters: [
      sessionIdHeader,
      protocolVersionHeader,
      { name: 'Last-Event-ID', in: 'header', required: false, description: 'Resume a stream after this event', schema: { type: 'string' } },
    ],
    responses: {
      200: { description: 'The event stream', content: { 'text/event-stream': { schema: sseStream } } },
      400: failure('A missing Mcp-Session-Id, or a Last-Event-ID that cannot be replayed'),
      ...refusals,
      405: failure('This server offers no standalone stream (stateless mode without a session store)'),
      406: failure('The Accept header does not list text/event-stream'),
      409: failure('The session already has a standalone stream'),
    },
  },
  delete: {
    operationId: 'endMcpSession',
    summary: 'End an MCP session',
    description: 'Ends the session named by `Mcp-Session-Id`; the id is unknown (404) afterwards.',
    tags: ['mcp'],
    security: headerSecurity,
    parameters: [{ ...sessionIdHeader, required: true }, protocolVersionHeader],
    responses: {
      200: { description: 'The session ended' },
      400: failure('A missing Mcp-Session-Id'),
      ...refusals,
    },
  },
};
