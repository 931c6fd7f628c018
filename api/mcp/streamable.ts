import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { authInfoFor, buildMcpServer, type McpSurface } from './server.js';
import type { Admission, DatabaseSessions, LiveSessions } from './sessions.js';
import { jsonRpcCodes, jsonRpcError, normaliseAccept, tooManySessions } from './http-rules.js';
import { mcpGuard, type McpGuard } from './guard.js';

export type StreamableMode =
  /** Sessions with their own SDK server, held in this process; `admit` applies `sessions.max_per_subject`. */
  | { kind: 'stateful'; sessions: LiveSessions<StreamableHTTPServerTransport>; admit: (subject: string) => Admission }
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

/**
 * Hands the request to the SDK transport; from here on the reply belongs to the transport. The
 * caller this request authenticated as goes with it: handlers answer for it, not for whoever
 * opened the session.
 */
async function delegate(
  reply: FastifyReply,
  request: FastifyRequest,
  transport: StreamableHTTPServerTransport,
  caller: CallerContext,
): Promise<void> {
  reply.hijack();
  normaliseAccept(request.raw);
  (request.raw as typeof request.raw & { auth?: unknown }).auth = authInfoFor(caller);
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
  mode: Extract<StreamableMode, { kind: 'stateful' }>,
  opts: StreamableOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: CallerContext,
): Promise<void> {
  const { sessions } = mode;
  const id = sessionIdOf(request);
  if (id !== undefined) {
    // Bound to the identity that opened it: another subject's request answers as an unknown session.
    const session = sessions.use(id, caller.subject);
    if (!session) return void refuse(reply, 404, jsonRpcCodes.sessionNotFound, 'Session not found');
    return delegate(reply, request, session.transport, caller);
  }
  if (request.method !== 'POST' || !isInitializeRequest(request.body)) {
    return void refuse(reply, 400, jsonRpcCodes.serverError, 'Bad Request: Mcp-Session-Id header is required');
  }
  const admission = mode.admit(caller.subject);
  if (!admission.ok) return void tooManySessions(reply, admission.retryAfterSeconds);
  const sessionId = randomUUID();
  const server = buildMcpServer(opts.surface, {});
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => sessionId,
    onsessionclosed: (closed) => sessions.forget(closed),
  });
  // Held from here, before any await, so concurrent initializes count it against the cap.
  sessions.add(sessionId, { transport, server, subject: caller.subject });
  // The server observes its transport closing (DELETE, eviction, shutdown); nothing to close back.
  server.onclose = () => sessions.forget(sessionId);
  await server.connect(transport);
  await delegate(reply, request, transport, caller);
  // The initialize did not open the session (the transport failed on it): give the place back.
  if (transport.sessionId === undefined) await sessions.close(sessionId);
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
    const admission = await sessions.create({
      id: sessionId,
      subject: caller.subject,
      protocolVersion: negotiatedVersion(request.body),
      clientInfo: params.clientInfo,
      capabilities: params.capabilities,
    });
    if (!admission.ok) return void tooManySessions(reply, admission.retryAfterSeconds);
    reply.raw.setHeader(sessionHeader, sessionId);
  } else if (sessions && id !== undefined) {
    if (!(await sessions.use(id, caller.subject))) return void refuse(reply, 404, jsonRpcCodes.sessionNotFound, 'Session not found');
    sessionId = id;
  }
  const server = buildMcpServer(opts.surface, sessionId ? { sessionId } : {});
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
      if (opts.mode.kind === 'stateful') await statefulHandler(opts.mode, opts, request, reply, caller);
      else await statelessHandler(opts, opts.mode.sessions, request, reply, caller);
      return reply;
    },
  });
}
