import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConnectionVerdicts, extractCredentials, presentedCredentials, type AuthDecision, type CallerContext, type Credential } from '../../shared/identity/index.js';
import { checkOrigin } from './http-rules.js';
import { jsonRpcCodes, jsonRpcError } from './streamable/wire.js';
import { resourceMetadataUrl, type ProtectedResource } from './protected-resource.js';
import { closeIfBodyPending, markAuthenticated } from '../http/raw-body.js';

export interface McpGuard {
  authenticate(credentials: Credential[]): Promise<AuthDecision>;
  allowedOrigins: readonly string[];
  /** True when the server listens on loopback only: then the Host header must be loopback too. */
  loopbackOnly: boolean;
  /** The realm named in WWW-Authenticate challenges. */
  realm: string;
  /** Present when protected resource metadata is served: challenges then point clients at it. */
  protectedResource?: ProtectedResource | undefined;
  /** Milliseconds since the epoch (how long a connection's accepted credentials hold). */
  clock?: (() => number) | undefined;
}

/**
 * The WWW-Authenticate value of a 401 (RFC 6750, RFC 9728 §5.1): realm, where the metadata is
 * (with the scopes basic use needs), and for a credential that was presented but refused,
 * `invalid_token` with its description.
 */
function challenge(guard: McpGuard, request: FastifyRequest, decision: Exclude<AuthDecision, { ok: true }>): string {
  const quoted = (value: string) => `"${value.replace(/["\\]/g, "'")}"`;
  const metadata = guard.protectedResource ? resourceMetadataUrl(guard.protectedResource, request) : undefined;
  const scopes = guard.protectedResource?.scopes;
  const params = [
    `realm=${quoted(guard.realm)}`,
    ...(metadata ? [`resource_metadata=${quoted(metadata)}`] : []),
    ...(metadata && scopes ? [`scope=${quoted(scopes.join(' '))}`] : []),
    ...(decision.error === 'missing_credentials' ? [] : ['error="invalid_token"', `error_description=${quoted(decision.description)}`]),
  ];
  return `Bearer ${params.join(', ')}`;
}

const allowHeaders = 'Content-Type, Accept, Authorization, X-API-Key, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';
const exposeHeaders = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After';

/**
 * The checks every MCP request passes before a transport sees it: Origin/Host, then
 * authentication (fail closed). CORS headers go on the raw response because the transport
 * writes it after Fastify has let go (no onSend hooks run then).
 */
export function mcpGuard(guard: McpGuard) {
  // The admitted caller rides on the request itself (a WeakMap entry per request was GC work on every request).
  const callerOf = Symbol('MCP caller');
  type Admitted = FastifyRequest & { [callerOf]?: CallerContext };
  const connections = new ConnectionVerdicts<Socket>(guard.clock);

  function cors(request: FastifyRequest, reply: FastifyReply): void {
    const origin = request.headers.origin;
    if (!origin) return;
    reply.raw.setHeader('Access-Control-Allow-Origin', origin);
    reply.raw.setHeader('Vary', 'Origin');
    reply.raw.setHeader('Access-Control-Expose-Headers', exposeHeaders);
  }

  function originOk(request: FastifyRequest, reply: FastifyReply): boolean {
    const verdict = checkOrigin({
      origin: request.headers.origin,
      host: request.headers.host,
      allowedOrigins: guard.allowedOrigins,
      loopbackOnly: guard.loopbackOnly,
    });
    if (verdict.ok) return true;
    void closeIfBodyPending(request, reply).code(403).header('content-type', 'application/json').send(jsonRpcError(jsonRpcCodes.serverError, `Forbidden: ${verdict.reason}`));
    return false;
  }

  /**
   * What the headers alone decide: false after answering 403 (Origin/Host), the caller when this
   * connection's accepted credentials are presented again, else undefined (ask the chain).
   */
  function decidedAtOnce(request: FastifyRequest, reply: FastifyReply): CallerContext | false | undefined {
    if (!originOk(request, reply)) return false;
    cors(request, reply);
    const presented = presentedCredentials(request.headers);
    return presented ? connections.get(request.raw.socket, presented) : undefined;
  }

  /** The caller the chain accepts, or undefined after answering 401. */
  async function authenticated(request: FastifyRequest, reply: FastifyReply): Promise<CallerContext | undefined> {
    const decision = await guard.authenticate(extractCredentials(request.headers));
    if (decision.ok) {
      const presented = presentedCredentials(request.headers);
      // The first request of a connection gets the caller object its next requests will get.
      return presented && decision.remainingMs !== undefined ? connections.remember(request.raw.socket, presented, decision.caller, decision.remainingMs) : decision.caller;
    }
    request.log.info({ reason: decision.error }, 'MCP request refused: not authenticated');
    void closeIfBodyPending(request, reply)
      .code(401)
      .header('www-authenticate', challenge(guard, request, decision))
      .header('content-type', 'application/json')
      .send(jsonRpcError(jsonRpcCodes.serverError, `Unauthorized: ${decision.description}`));
    return undefined;
  }

  function admitted(request: FastifyRequest, caller: CallerContext): void {
    markAuthenticated(request.raw);
    (request as Admitted)[callerOf] = caller;
  }

  return {
    preflight(request: FastifyRequest, reply: FastifyReply) {
      if (!originOk(request, reply)) return reply;
      cors(request, reply);
      reply.raw.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      reply.raw.setHeader('Access-Control-Allow-Headers', allowHeaders);
      reply.raw.setHeader('Access-Control-Max-Age', '600');
      return reply.code(204).send();
    },

    /**
     * The route's onRequest hook: Origin/Host and authentication from the headers, before any of
     * the body is read, so an unauthenticated sender cannot make us read (or hold) a byte of it;
     * an accepted body is the caller's own (not counted as unauthenticated). The handler reads the
     * caller with `callerOf`.
     */
    onRequest(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
      // A callback hook: a request the headers decide at once (most on a keep-alive connection)
      // goes on without a promise or a turn of the microtask queue. A refused one is answered and
      // goes no further (done is not called).
      const known = decidedAtOnce(request, reply);
      if (known === false) return;
      if (known) {
        admitted(request, known);
        return done();
      }
      authenticated(request, reply).then((caller) => {
        if (!caller) return;
        admitted(request, caller);
        done();
      }, done);
    },

    /** The caller the onRequest hook admitted. */
    callerOf(request: FastifyRequest): CallerContext {
      const caller = (request as Admitted)[callerOf];
      if (!caller) throw new Error('an MCP route ran without the guard\'s onRequest hook');
      return caller;
    },
  };
}
