import type { IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return (hostHeader.split(':')[0] ?? '').toLowerCase();
}

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && loopbackHosts.has(hostName(hostHeader));
}

/**
 * DNS-rebinding defence (MCP transport notes 1.7): a browser Origin must be this server's own
 * origin or one the operator allowed; when the server listens on loopback only, the Host header
 * must name loopback too. Requests without Origin (CLIs, server-side clients) are normal.
 */
export function checkOrigin(opts: {
  origin: string | undefined;
  host: string | undefined;
  allowedOrigins: readonly string[];
  loopbackOnly: boolean;
}): { ok: true } | { ok: false; reason: string } {
  if (opts.loopbackOnly && !isLoopbackHost(opts.host)) return { ok: false, reason: 'host not allowed' };
  if (opts.origin === undefined || opts.origin === '') return { ok: true };
  if (opts.allowedOrigins.includes(opts.origin)) return { ok: true };
  let originHost: string;
  try {
    originHost = new URL(opts.origin).host.toLowerCase();
  } catch {
    return { ok: false, reason: 'malformed Origin' };
  }
  if (opts.host !== undefined && originHost === opts.host.toLowerCase()) return { ok: true };
  if (opts.loopbackOnly && isLoopbackHost(originHost)) return { ok: true };
  return { ok: false, reason: 'origin not allowed' };
}

/**
 * Clients differ in the Accept header they send (none, `*\/*`, or only one of the two types);
 * the SDK insists on both, so POSTs are widened to both and GETs to the event stream. The SDK
 * builds its request from rawHeaders, so that is what is edited.
 */
export function normaliseAccept(raw: IncomingMessage): void {
  const wanted = raw.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream';
  const index = raw.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'accept');
  const current = index >= 0 ? (raw.rawHeaders[index + 1] ?? '') : '';
  const satisfied = raw.method === 'GET'
    ? current.includes('text/event-stream')
    : current.includes('application/json') && current.includes('text/event-stream');
  if (satisfied) return;
  if (index >= 0) raw.rawHeaders[index + 1] = wanted;
  else raw.rawHeaders.push('Accept', wanted);
  raw.headers.accept = wanted;
}

export function jsonRpcError(code: number, message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

export const jsonRpcCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  internalError: -32603,
  serverError: -32000,
  sessionNotFound: -32001,
} as const;

/** 429 to an initialize beyond `sessions.max_per_subject`, with the wait in `Retry-After`. */
export function tooManySessions(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .header('content-type', 'application/json')
    .send(jsonRpcError(jsonRpcCodes.serverError, 'Too many sessions: this identity holds the most live MCP sessions allowed; close one or retry later'));
}
