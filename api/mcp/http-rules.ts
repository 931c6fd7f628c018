import type { FastifyReply } from 'fastify';
import { jsonRpcCodes, jsonRpcError } from './streamable/wire.js';
import { headerDecisions } from '../../shared/inbound/index.js';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1).toLowerCase();
  return (hostHeader.split(':')[0] ?? '').toLowerCase();
}

const isLoopbackHostName = headerDecisions((hostHeader: string) => loopbackHosts.has(hostName(hostHeader)));

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && isLoopbackHostName(hostHeader);
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

/** 429 to an initialize beyond `sessions.max_per_subject`, with the wait in `Retry-After`. */
export function tooManySessions(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .header('content-type', 'application/json')
    .send(jsonRpcError(jsonRpcCodes.serverError, 'Too many sessions: this identity holds the most live MCP sessions allowed; close one or retry later'));
}

/**
 * The largest body /mcp (and the legacy /messages) reads: server.body_limit, but never less than
 * one asset save takes — portal.max_content_size bytes sent as base64 (a PNG's content_base64),
 * four thirds of it, in a JSON-RPC envelope (64 KiB) — so a save the tool accepts never dies as a
 * 413 at the door. Callers authenticate from their headers before their body is read.
 */
export function mcpBodyLimit(limits: { bodyLimit: number; maxContentSize: number }): number {
  return Math.max(limits.bodyLimit, Math.ceil(limits.maxContentSize / 3) * 4 + 64 * 1024);
}
