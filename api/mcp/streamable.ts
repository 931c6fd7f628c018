import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage, type MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { authInfoFor, buildMcpServer, type McpSurface } from './server.js';
import type { Admission, LiveSessions } from './sessions.js';
import type { DatabaseSessions } from './database-sessions.js';
import { tooManySessions } from './http-rules.js';
import { closeWithoutStackTraces } from './sdk-dispatch.js';
import type { ConnectedServers } from './notifications.js';
import { mcpGuard, type McpGuard } from './guard.js';
import { jsonBodyParser } from '../http/caller-input.js';
import { HttpTransport, resumeLocalStream, sendJson, sessionHeader, type StreamSettings } from './streamable/transport.js';
import { SseConnection } from './streamable/sse.js';
import {
  acceptsEventStream,
  headerProtocolVersion,
  isInitialize,
  isRequest,
  jsonRpcCodes,
  jsonRpcError,
  messagesOf,
  parseEventId,
  requestedProtocolVersion,
  responseModeFor,
  type ResponseMode,
  type WireRefusal,
} from './streamable/wire.js';

export type StreamableMode =
  /** Sessions with their own SDK server, held in this process; `admit` applies `sessions.max_per_subject`. */
  | { kind: 'stateful'; sessions: LiveSessions<HttpTransport>; admit: (subject: string) => Admission }
  /** A fresh server per POST; with a database, session ids are still issued and checked there. */
  | { kind: 'stateless'; sessions?: DatabaseSessions; standalone?: StandaloneStreams };

export interface StreamableOptions {
  surface: McpSurface;
  mode: StreamableMode;
  guard: McpGuard;
  streams: StreamSettings;
  path?: string;
  /** The largest body read (http-rules.ts mcpBodyLimit); default the listener's. */
  bodyLimit?: number;
}

/**
 * The standalone GET streams of database sessions held by this process: the session's requests
 * may be served by any replica, but server-initiated messages reach it through the replica its
 * GET stream is connected to.
 */
export class StandaloneStreams {
  readonly #sessions = new Map<string, { transport: HttpTransport; caller: CallerContext; unregister?: () => void }>();

  constructor(
    private readonly settings: StreamSettings,
    /** Where server-initiated notifications (list_changed) find the sessions of this process. */
    private readonly targets?: ConnectedServers,
  ) {}

  /** Opens (or reopens) the session's stream; notifications are scoped to the caller of the latest GET. */
  open(sessionId: string, version: string, caller: CallerContext, res: FastifyReply['raw']): void {
    let session = this.#sessions.get(sessionId);
    if (!session) {
      const transport = new HttpTransport({ sessionId, protocolVersion: version, streams: this.settings });
      const held: { transport: HttpTransport; caller: CallerContext; unregister?: () => void } = { transport, caller };
      const unregister = this.targets?.add({
        caller: () => held.caller,
        sendResourceListChanged: () => transport.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }),
        sendPromptListChanged: () => transport.send({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }),
      });
      if (unregister) held.unregister = unregister;
      session = held;
      this.#sessions.set(sessionId, session);
    }
    session.caller = caller;
    session.transport.openStandalone(res, version);
  }

  async close(sessionId: string): Promise<void> {
    const session = this.#sessions.get(sessionId);
    if (!session) return;
    this.#sessions.delete(sessionId);
    session.unregister?.();
    await session.transport.close();
  }

  /** Forgets the sessions of this process that are no longer live (expired, or ended on another replica). */
  async sweep(liveAmong: (ids: string[]) => Promise<Set<string>>): Promise<void> {
    if (this.#sessions.size === 0) return;
    const live = await liveAmong([...this.#sessions.keys()]);
    for (const id of [...this.#sessions.keys()]) if (!live.has(id)) await this.close(id);
  }

  endStreams(): void {
    for (const { transport } of this.#sessions.values()) transport.closeStandaloneStream();
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(reply: FastifyReply, refusal: WireRefusal): void {
  void reply.code(refusal.status).header('content-type', 'application/json').send(jsonRpcError(refusal.code, refusal.message));
}

function isRefusal<T>(value: T | WireRefusal): value is WireRefusal {
  return typeof value === 'object' && value !== null && 'status' in value && 'code' in value;
}

const sessionNotFound: WireRefusal = { status: 404, code: jsonRpcCodes.sessionNotFound, message: 'Session not found' };
const sessionRequired: WireRefusal = { status: 400, code: jsonRpcCodes.serverError, message: 'Bad Request: Mcp-Session-Id header is required' };

/** What a POST needs before any message is dispatched: its messages and how to answer them. */
function readPost(request: FastifyRequest, version: string): { messages: JSONRPCMessage[]; batch: boolean; mode: ResponseMode } | WireRefusal {
  const mode = responseModeFor(header(request, 'accept'));
  if (isRefusal(mode)) return mode;
  const parsed = messagesOf(request.body, version);
  if (isRefusal(parsed)) return parsed;
  return { ...parsed, mode };
}

/** A request without a session id: only a POST carrying initialize may open one. */
function readInitialize(request: FastifyRequest): { post: Exclude<ReturnType<typeof readPost>, WireRefusal>; initialize: JSONRPCMessage } | WireRefusal {
  if (request.method !== 'POST') return sessionRequired;
  const fromHeader = versionOf(request, undefined);
  if (isRefusal(fromHeader)) return fromHeader;
  const post = readPost(request, fromHeader);
  if (isRefusal(post)) return post;
  const initialize = post.messages.find(isInitialize);
  return initialize ? { post, initialize } : sessionRequired;
}

/** The version a request of a session speaks: the one it negotiated; a bad header is refused. */
function versionOf(request: FastifyRequest, negotiated: string | undefined): string | WireRefusal {
  const fromHeader = headerProtocolVersion(header(request, 'mcp-protocol-version'));
  if (isRefusal(fromHeader)) return fromHeader;
  return negotiated ?? fromHeader;
}

/**
 * The extra information the SDK passes to handlers: the caller this request authenticated as
 * (handlers answer for it, not for whoever opened the session) and the request headers.
 */
function extraFor(request: FastifyRequest, caller: CallerContext): MessageExtraInfo {
  return { authInfo: authInfoFor(caller), requestInfo: { headers: request.headers } };
}

/** A GET with `Last-Event-ID`: the stream resumes here, or from the archive another replica wrote. */
async function resume(opts: StreamableOptions, reply: FastifyReply, sessionId: string, lastEventId: string): Promise<void> {
  const position = parseEventId(lastEventId);
  if (!position) return refuse(reply, { status: 400, code: jsonRpcCodes.serverError, message: 'Bad Request: malformed Last-Event-ID' });
  reply.hijack();
  const { registry, archive, keepAliveMs, retryMs } = opts.streams;
  if (resumeLocalStream(registry, sessionId, lastEventId, reply.raw, { keepAliveMs })) return;
  const archived = archive ? await archive.replay(sessionId, position.streamId, position.seq) : undefined;
  if (!archived && !archive) {
    return sendJson(reply.raw, 400, jsonRpcError(jsonRpcCodes.serverError, 'Bad Request: the stream is unknown or no longer replayable'));
  }
  const connection = new SseConnection(reply.raw, { keepAliveMs: 0, headers: { [sessionHeader]: sessionId }, flushHeaders: false });
  for (const event of archived?.events ?? []) connection.send(event.message, `${position.streamId}.${event.seq}`);
  // Not finished yet (or not yet written by the replica running it): the client polls after `retry`.
  if (archived?.final) connection.end();
  else connection.endWithRetry(retryMs);
}

async function statefulHandler(
  mode: Extract<StreamableMode, { kind: 'stateful' }>,
  opts: StreamableOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: CallerContext,
): Promise<void> {
  const { sessions } = mode;
  const id = header(request, sessionHeader);
  if (id !== undefined) {
    // Bound to the identity that opened it: another subject's request answers as an unknown session.
    const session = sessions.use(id, caller.subject);
    if (!session) return refuse(reply, sessionNotFound);
    const version = versionOf(request, session.transport.protocolVersion);
    if (isRefusal(version)) return refuse(reply, version);
    if (request.method === 'DELETE') {
      await sessions.close(id);
      return void reply.code(200).send();
    }
    if (request.method === 'GET') return openGet(opts, request, reply, id, (res) => session.transport.openStandalone(res, version));
    const post = readPost(request, version);
    if (isRefusal(post)) return refuse(reply, post);
    if (post.messages.some(isInitialize)) return refuse(reply, { status: 400, code: jsonRpcCodes.invalidRequest, message: 'Invalid Request: the session is already initialized' });
    reply.hijack();
    return session.transport.handlePost(reply.raw, post.messages, post.batch, post.mode, version, extraFor(request, caller));
  }
  const opening = readInitialize(request);
  if (isRefusal(opening)) return refuse(reply, opening);
  const { post, initialize } = opening;
  const admission = mode.admit(caller.subject);
  if (!admission.ok) return void tooManySessions(reply, admission.retryAfterSeconds);
  const sessionId = randomUUID();
  const server = buildMcpServer(opts.surface, {});
  const transport = new HttpTransport({ sessionId, streams: opts.streams, onInitializeRefused: () => void sessions.close(sessionId) });
  // Held from here, before any await, so concurrent initializes count it against the cap.
  sessions.add(sessionId, { transport, server, subject: caller.subject });
  // The server observes its transport closing (DELETE, eviction, shutdown); nothing to close back.
  server.onclose = () => sessions.forget(sessionId);
  await server.connect(transport);
  reply.hijack();
  transport.handlePost(reply.raw, post.messages, post.batch, post.mode, requestedProtocolVersion(initialize, LATEST_PROTOCOL_VERSION), extraFor(request, caller));
}

/** GET: resume a stream from `Last-Event-ID`, else open the session's standalone stream. */
async function openGet(
  opts: StreamableOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  openStandalone: (res: FastifyReply['raw']) => void,
): Promise<void> {
  if (!acceptsEventStream(header(request, 'accept'))) {
    return refuse(reply, { status: 406, code: jsonRpcCodes.serverError, message: 'Not Acceptable: a GET must accept text/event-stream' });
  }
  const lastEventId = header(request, 'last-event-id');
  if (lastEventId !== undefined) return resume(opts, reply, sessionId, lastEventId);
  reply.hijack();
  openStandalone(reply.raw);
}

async function statelessHandler(
  opts: StreamableOptions,
  mode: Extract<StreamableMode, { kind: 'stateless' }>,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: CallerContext,
): Promise<void> {
  const { sessions } = mode;
  if (!sessions) {
    if (request.method !== 'POST') {
      return void reply.header('allow', 'POST').code(405).header('content-type', 'application/json').send(jsonRpcError(jsonRpcCodes.serverError, 'Method not allowed: this server is stateless'));
    }
    const version = versionOf(request, undefined);
    if (isRefusal(version)) return refuse(reply, version);
    return servePerRequest(opts, request, reply, caller, undefined, version);
  }
  const id = header(request, sessionHeader);
  if (id === undefined) {
    const opening = readInitialize(request);
    if (isRefusal(opening)) return refuse(reply, opening);
    const { post, initialize } = opening;
    const sessionId = randomUUID();
    const version = requestedProtocolVersion(initialize, LATEST_PROTOCOL_VERSION);
    const params = (initialize as { params?: { clientInfo?: unknown; capabilities?: unknown } }).params ?? {};
    const admission = await sessions.create({ id: sessionId, subject: caller.subject, protocolVersion: version, clientInfo: params.clientInfo, capabilities: params.capabilities });
    if (!admission.ok) return void tooManySessions(reply, admission.retryAfterSeconds);
    return servePerRequest(opts, request, reply, caller, sessionId, version, post);
  }
  const session = await sessions.use(id, caller.subject);
  if (!session) return refuse(reply, sessionNotFound);
  const version = versionOf(request, session.protocolVersion);
  if (isRefusal(version)) return refuse(reply, version);
  if (request.method === 'DELETE') {
    await sessions.delete(id, caller.subject);
    await mode.standalone?.close(id);
    return void reply.code(200).send();
  }
  if (request.method === 'GET') {
    const standalone = mode.standalone;
    return openGet(opts, request, reply, id, (res) => (standalone ? standalone.open(id, version, caller, res) : sendJson(res, 405, jsonRpcError(jsonRpcCodes.serverError, 'Method not allowed'), { allow: 'POST, DELETE' })));
  }
  return servePerRequest(opts, request, reply, caller, id, version);
}

/** A stateless POST: a server and transport for this request alone, retired once it is answered. */
async function servePerRequest(
  opts: StreamableOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: CallerContext,
  sessionId: string | undefined,
  version: string,
  post: ReturnType<typeof readPost> = readPost(request, version),
): Promise<void> {
  if (isRefusal(post)) return refuse(reply, post);
  // Notifications and responses alone: a server of this request's own would answer nothing, and
  // nothing they could change outlives it (the requests they cancel or answer are its own, none),
  // so the POST is accepted as its transport accepts such a POST, without building one.
  if (!post.messages.some(isRequest)) {
    reply.hijack();
    return void reply.raw.writeHead(202, sessionId ? { [sessionHeader]: sessionId } : {}).end();
  }
  const server = buildMcpServer(opts.surface, sessionId ? { sessionId } : {});
  const transport = new HttpTransport({
    ...(sessionId ? { sessionId } : {}),
    protocolVersion: version,
    streams: opts.streams,
    onSettled: () => void closeWithoutStackTraces(server),
  });
  await server.connect(transport);
  reply.hijack();
  transport.handlePost(reply.raw, post.messages, post.batch, post.mode, version, extraFor(request, caller));
}

/** The Streamable HTTP endpoint, served at `/mcp` and `/mcp/` without redirects. */
export async function streamableHttpRoutes(app: FastifyInstance, opts: StreamableOptions): Promise<void> {
  const path = opts.path ?? '/mcp';
  const guard = mcpGuard(opts.guard);
  // A DELETE (or any request) may name `Content-Type: application/json` with no body at all.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', jsonBodyParser(app, { allowEmpty: true }));
  app.options(path, { schema: { hide: true } }, (request, reply) => guard.preflight(request, reply));
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: path,
    schema: { hide: true },
    ...(opts.bodyLimit ? { bodyLimit: opts.bodyLimit } : {}),
    onRequest: guard.onRequest,
    handler: async (request, reply) => {
      const caller = guard.callerOf(request);
      try {
        if (opts.mode.kind === 'stateful') await statefulHandler(opts.mode, opts, request, reply, caller);
        else await statelessHandler(opts, opts.mode, request, reply, caller);
      } catch (error) {
        request.log.error({ err: error }, 'MCP transport failed');
        if (!reply.sent) reply.hijack();
        if (!reply.raw.headersSent) sendJson(reply.raw, 500, jsonRpcError(jsonRpcCodes.internalError, 'internal error'));
        else reply.raw.end();
      }
      return reply;
    },
  });
}
