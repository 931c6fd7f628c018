import type { FastifyInstance } from 'fastify';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { buildMcpServer, type McpSurface } from './server.js';
import type { LiveSessions } from './sessions.js';
import { jsonRpcCodes, jsonRpcError } from './http-rules.js';
import { mcpGuard, type McpGuard } from './guard.js';

/**
 * The deprecated HTTP+SSE transport (protocol 2024-11-05) for `server.transport: sse`:
 * GET /sse opens the stream and names the POST endpoint, POST /messages?sessionId=… carries
 * each client message. Kept on its own paths, apart from /mcp.
 */
export async function legacySseRoutes(
  app: FastifyInstance,
  opts: { surface: McpSurface; guard: McpGuard; sessions: LiveSessions<SSEServerTransport> },
): Promise<void> {
  const guard = mcpGuard(opts.guard);

  app.get('/sse', { schema: { hide: true } }, async (request, reply) => {
    const caller = await guard.admit(request, reply);
    if (!caller) return reply;
    reply.hijack();
    const transport = new SSEServerTransport('/messages', reply.raw);
    const server = buildMcpServer(opts.surface, { caller, sessionId: transport.sessionId });
    const sessionId = transport.sessionId;
    opts.sessions.add(sessionId, { transport, server, subject: caller.subject });
    // The server observes its transport closing (client gone or session closed); nothing to close back.
    server.onclose = () => opts.sessions.forget(sessionId);
    await server.connect(transport);
    return reply;
  });

  app.post('/messages', { schema: { hide: true } }, async (request, reply) => {
    const caller = await guard.admit(request, reply);
    if (!caller) return reply;
    const id = (request.query as { sessionId?: string }).sessionId;
    const session = id ? opts.sessions.use(id, caller.subject) : undefined;
    if (!session) {
      return reply.code(404).send(jsonRpcError(jsonRpcCodes.sessionNotFound, 'Session not found'));
    }
    reply.hijack();
    await session.transport.handlePostMessage(request.raw, reply.raw, request.body);
    return reply;
  });
}
