/**
 * Inbound webhook routes (spec document 3, "Inbound webhooks"): `POST /hooks/{source}`,
 * `POST /hooks/{source}/{secret}` (path_token) and the CloudEvents `OPTIONS /hooks/{source}`.
 * The route does the steps that come before the body is read — the source exists and is enabled
 * (404, the same for both), the handshake, authentication for every mode that does not sign the
 * body (header_token, basic, path_token: 401 unread), the body within max_body_bytes (413 on
 * Content-Length before reading, or as soon as the stream passes it) and the listener's body rules
 * (api/http/raw-body.ts: an hmac body is unauthenticated until verified) — and hands the raw bytes
 * to the receiver (shared/webhooks/receiver.ts) for the rest of the handling order. A request
 * answered before its body was read closes its connection.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app.js';
import type { HookAnswer, WebhookReceiver } from '../../shared/webhooks/index.js';
import { BodyRefusal } from '../../shared/inbound/index.js';
import { closeIfBodyPending, markAuthenticated, readBodyWithin } from '../http/raw-body.js';
import { publicOperation } from '../http/openapi.js';

export interface HookRoutesOptions {
  receiver: WebhookReceiver;
  now?: () => number;
}

const tags = ['webhooks'];
const refusal = z.object({ error: z.string().describe('not_found, unauthorized, too_large, rate_limited, invalid_body, buffer_full, write_failed'), message: z.string() });
const sourceParams = z.object({ source: z.string().describe('Source name') });
const postResponses = {
  202: z.object({ accepted: z.int().describe('Events accepted: all of them are in object storage') }),
  400: refusal.describe('Not JSON (or a form post without a JSON payload field), or split does not name an array'),
  401: refusal.describe('The request does not authenticate; nothing stored'),
  404: refusal.describe('No enabled source of that name (unknown and disabled answer alike)'),
  413: refusal.describe('Body past max_body_bytes, or more events than buffer_limit; nothing stored'),
  429: refusal.describe('Past the source\'s rate limit; Retry-After says when to retry'),
  503: refusal.describe('Buffer full (Retry-After: 1) or segment not written in time (Retry-After: 5); nothing acknowledged'),
};

export async function hookRoutes(app: App, opts: HookRoutesOptions): Promise<void> {
  const now = opts.now ?? Date.now;
  // Bodies are read by the handler, after the source is known, within its own limit and as raw bytes.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const receive = async (request: FastifyRequest<{ Params: { source: string; secret?: string } }>, reply: FastifyReply) => {
    const receivedAtMs = now();
    const { receiver } = opts;
    const found = await receiver.find(request.params.source);
    if (!found?.source.enabled) return sendAnswer(closeIfBodyPending(request, reply), receiver.notFound(found));
    // The rest of an oversized body is not read: the connection closes after the answer.
    const tooLarge = () => sendAnswer(reply.header('connection', 'close'), receiver.tooLarge(found, receivedAtMs));
    const limit = found.source.config.max_body_bytes;
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return tooLarge();
    const { secret } = request.params;
    const arrived = { headers: request.headers, ...(secret !== undefined ? { pathSecret: secret } : {}), receivedAtMs };
    // Every mode but hmac authenticates from the headers: a refused request's body is never read
    // (so a chunked body too large gets 401 rather than the spec order's 413; both store nothing).
    const early = receiver.authenticateHeaders(found, arrived);
    if (early !== undefined && early !== true) return sendAnswer(closeIfBodyPending(request, reply), early);
    if (early === true) markAuthenticated(request.raw);
    let body: Uint8Array | undefined;
    try {
      body = await readBody(request.raw, reply.raw, limit);
    } catch (error) {
      // Too slow, or this replica's unauthenticated bytes are full (hmac): the connection closes.
      if (error instanceof BodyRefusal) return sendAnswer(reply, receiver.bodyRefused(error));
      throw error;
    }
    if (!body) return tooLarge();
    return sendAnswer(reply, await receiver.accept(found, { ...arrived, body }, early === true));
  };

  // A Content-Type Fastify cannot even parse as a media type still goes through the handling order
  // (it is refused as invalid_body once the request authenticates).
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw error;
    return receive(request as FastifyRequest<{ Params: { source: string; secret?: string } }>, reply);
  });

  const postSchema = { tags, body: z.unknown().optional().describe('JSON, or a form post with the JSON in field payload'), response: postResponses };
  app.post(
    '/hooks/:source',
    { schema: { operationId: 'sendWebhookEvents', security: publicOperation, ...postSchema, summary: 'Send events to a webhook source', description: 'Send events to a webhook source (hmac, header_token or basic authentication)', params: sourceParams } },
    receive,
  );
  app.post(
    '/hooks/:source/:secret',
    { schema: { operationId: 'sendWebhookEventsWithPathToken', security: publicOperation, ...postSchema, summary: 'Send events to a path_token webhook source', description: 'Send events to a path_token source', params: sourceParams.extend({ secret: z.string().describe("The source's secret") }) } },
    receive,
  );
  app.options(
    '/hooks/:source',
    {
      schema: {
        operationId: 'handshakeWebhookSource', security: publicOperation,
        tags,
        summary: 'CloudEvents webhook handshake',
        description: 'CloudEvents webhook handshake: 200 with WebHook-Allowed-Origin (and WebHook-Allowed-Rate) for cloudevents sources, 405 for others',
        params: sourceParams,
        response: { 400: refusal, 404: refusal, 405: refusal },
      },
    },
    async (request, reply) => {
      const found = await opts.receiver.find(request.params.source);
      if (!found?.source.enabled) return sendAnswer(reply, opts.receiver.notFound(found));
      return sendAnswer(reply, opts.receiver.handshake(found, request.headers));
    },
  );
}

function sendAnswer(reply: FastifyReply, answer: HookAnswer): FastifyReply {
  void reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) void reply.header(name, value);
  return answer.body ? reply.send(answer.body) : reply.send();
}

/**
 * Node answers `Expect: 100-continue` with 100 Continue before any handler runs, so a sender would
 * start uploading a body the route refuses unread (404, 413). On this server, /hooks/ requests get
 * their 100 Continue only when the route reads the body; every other request as before.
 */
export function continueHooksOnRead(server: Pick<Server, 'on' | 'emit'>): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.url?.startsWith('/hooks/')) response.writeContinue();
    server.emit('request', request, response);
  });
}

/** The body, or undefined as soon as it passes `limit` bytes (the rest is left unread). */
function readBody(raw: IncomingMessage, response: ServerResponse, limit: number): Promise<Uint8Array | undefined> {
  if (/100-continue/i.test(raw.headers.expect ?? '')) response.writeContinue();
  return readBodyWithin(raw, limit);
}
