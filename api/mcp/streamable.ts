import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { buildMcpServer, type McpSurface } from './server.js';
import type { DatabaseSessions, LiveSessions } from './sessions.js';
import { jsonRpcCodes, jsonRpcError, normaliseAccept } from './http-rules.js';
import { mcpGuard, type McpGuard } from './guard.js';

export type StreamableMode =
  /** Sessions with their own SDK server, held in this process. */
  | { kind: 'stateful'; sessions: LiveSessions<StreamableHTTPServerTransport> }
  /** A fresh server per POST; with a database, session ids are still issued and checked there. */
  | { kind: 'stateless'; sessions?: DatabaseSessions };

export interface StreamableOptions {
  surface: McpSurface;
  mode: StreamableMode;
  guard: McpGuard;
  path?: string;
}

const sessionHeader = 'mcp-session-id';

function sessionIdOf(request: FastifyRequest): string | undefined {
  const value = request.headers[sessionHeader];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(jsonRpcError(code, message));
}

/** Hands the request to the SDK transport; from here on the reply belongs to the transport. */
async function delegate(
  reply: FastifyReply,
  request: FastifyRequest,
  transport: StreamableHTTPServerTransport,
  caller: CallerContext,
): Promise<void> {
  reply.hijack();
  normaliseAccept(request.raw);
  (request.raw as typeof request.raw & { auth?: unknown }).auth = { token: '', clientId: caller.subject, scopes: [], extra: { caller } };
  try {
    await transport.handleRequest(request.raw, reply.raw, request.body);
  } catch (error) {
    request.log.error({ err: error }, 'MCP transport failed');
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json' });
      reply.raw.end(JSON.stringify(jsonRpcError(jsonRpcCodes.internalError, 'internal error')));
    } else reply.raw.end();
  }
}

function negotiatedVersion(body: unknown): string {
  const requested = (body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

async function statefulHandler(
  opts: StreamableOptions,
  sessions: LiveSessions<StreamableHTTPServerTransport>,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: CallerContext,
): Promise<void> {
  const id = sessionIdOf(request);
  if (id !== undefined) {
    const session = sessions.use(id, caller.subject);
    if (!session) return void refuse(reply, 404, jsonRpcCodes.sessionNotFound, 'Session not found');
    return delegate(reply, request, session.transport, caller);
  }
  if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
    return void refuse(reply, 400, jsonRpcCodes.serverError, 'Bad Request: Mcp-Session-Id header is required');
  }
  const server = buildMcpServer(opts.surface, { caller });
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sessionId) => sessions.add(sessionId, { transport, server, subject: caller.subject }),
    onsessionclosed: (sessionId) => sessions.forget(sessionId),
  });
  // The server observes its transport closing (DELETE, eviction, shutdown); nothing to close back.
  server.onclose = () => {
    if (transport.sessionId) sessions.forget(transport.sessionId);
  };
  await server.connect(transport);
  return delegate(reply, request, transport, caller);
}

async function statelessHandler(
  opts: StreamableOptions,
  sessions: DatabaseSessions | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: CallerContext,
): Promise<void> {
  const id = sessionIdOf(request);
  if (request.method === 'DELETE' && sessions && id !== undefined) {
    const removed = await sessions.delete(id, caller.subject);
    return void (removed ? reply.code(200).send() : refuse(reply, 404, jsonRpcCodes.sessionNotFound, 'Session not found'));
  }
  if (request.method !== 'POST') {
    return void refuse(reply.header('allow', 'POST'), 405, jsonRpcCodes.serverError, 'Method not allowed: this server is stateless');
  }
  let sessionId: string | undefined;
  if (sessions && isInitializeRequest(request.body)) {
    sessionId = randomUUID();
    const params = (request.body as { params: { clientInfo?: unknown; capabilities?: unknown } }).params;
    await sessions.create({
      id: sessionId,
      subject: caller.subject,
      protocolVersion: negotiatedVersion(request.body),
      clientInfo: params.clientInfo,
      capabilities: params.capabilities,
    });
    reply.raw.setHeader(sessionHeader, sessionId);
  } else if (sessions && id !== undefined) {
    if (!(await sessions.use(id, caller.subject))) return void refuse(reply, 404, jsonRpcCodes.sessionNotFound, 'Session not found');
    sessionId = id;
  }
  const server = buildMcpServer(opts.surface, { caller, ...(sessionId ? { sessionId } : {}) });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  return delegate(reply, request, transport, caller);
}

/** The Streamable HTTP endpoint, served at `/mcp` and `/mcp/` without redirects. */
export async function streamableHttpRoutes(app: FastifyInstance, opts: StreamableOptions): Promise<void> {
  const path = opts.path ?? '/mcp';
  const guard = mcpGuard(opts.guard);
  app.options(path, (request, reply) => guard.preflight(request, reply));
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: path,
    schema: { hide: true },
    handler: async (request, reply) => {
      const caller = await guard.admit(request, reply);
      if (!caller) return reply;
      if (opts.mode.kind === 'stateful') await statefulHandler(opts, opts.mode.sessions, request, reply, caller);
      else await statelessHandler(opts, opts.mode.sessions, request, reply, caller);
      return reply;
    },
  });
}
