import type { FastifyInstance } from 'fastify';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { authInfoFor, buildMcpServer, type McpSurface } from './server.js';
import type { Admission, LiveSessions } from './sessions.js';
import { tooManySessions } from './http-rules.js';
import { jsonRpcCodes, jsonRpcError } from './streamable/wire.js';
import { mcpGuard, type McpGuard } from './guard.js';

/**
 * The deprecated HTTP+SSE transport (protocol 2024-11-05) for `server.transport: sse`:
 * GET /sse opens the stream and names the POST endpoint, POST /messages?sessionId=… carries
 * each client message. Kept on its own paths, apart from /mcp. A session belongs to the subject
 * that opened it; each POST is answered for the caller its own credential names.
 */
export async function legacySseRoutes(
  app: FastifyInstance,
  opts: {
    surface: McpSurface;
    guard: McpGuard;
    sessions: LiveSessions<SSEServerTransport>;
    /** `sessions.max_per_subject`, shared with the Streamable HTTP sessions of this process. */
    admit: (subject: string) => Admission;
    /** The largest body /messages reads (http-rules.ts mcpBodyLimit); default the listener's. */
    bodyLimit?: number;
  },
): Promise<void> {
  const guard = mcpGuard(opts.guard);

  const authenticated = { schema: { hide: true }, onRequest: guard.onRequest };

  app.get('/sse', authenticated, async (request, reply) => {
    const caller = guard.callerOf(request);
    const admission = opts.admit(caller.subject);
    if (!admission.ok) return tooManySessions(reply, admission.retryAfterSeconds);
    reply.hijack();
    const transport = new SSEServerTransport('/messages', reply.raw);
    const sessionId = transport.sessionId;
    const server = buildMcpServer(opts.surface, { sessionId });
    // Added before any await, so concurrent opens count it against the cap.
    opts.sessions.add(sessionId, { transport, server, subject: caller.subject });
    // The server observes its transport closing (client gone or session closed); nothing to close back.
    server.onclose = () => opts.sessions.forget(sessionId);
    await server.connect(transport);
    return reply;
  });

  app.post('/messages', { ...authenticated, ...(opts.bodyLimit ? { bodyLimit: opts.bodyLimit } : {}) }, async (request, reply) => {
    const caller = guard.callerOf(request);
    const id = (request.query as { sessionId?: string }).sessionId;
    const session = id ? opts.sessions.use(id, caller.subject) : undefined;
    if (!session) {
      return reply.code(404).send(jsonRpcError(jsonRpcCodes.sessionNotFound, 'Session not found'));
    }
    reply.hijack();
    (request.raw as typeof request.raw & { auth?: unknown }).auth = authInfoFor(caller);
    await session.transport.handlePostMessage(request.raw, reply.raw, request.body);
    return reply;
  });
}
