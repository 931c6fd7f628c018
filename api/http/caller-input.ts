/**
 * The rules every route of a listener applies to what callers send, before any handler runs
 * (shared/inbound): JSON bodies nested past MAX_JSON_DEPTH are refused before they are parsed, and
 * a NUL in the path, the query or a parsed body field is refused. Both answer 400 through the
 * route's own error handler, so each surface keeps its error shape (JSON-RPC on /mcp, OAuth's on
 * /oauth/).
 */
import type { FastifyInstance } from 'fastify';
import { bodyParser } from './raw-body.js';
import { jsonTextMayHoldNul, nestsDeeperThan, nulField, nulInTarget, tooDeepReason } from '../../shared/inbound/index.js';

/** A request refused for what it carries: 400, `invalid_request`, the message says why. */
export class CallerInputError extends Error {
  readonly statusCode = 400;
  readonly code = 'invalid_request';
}

/** Parsed JSON bodies whose text held no NUL escape: the NUL rule has nothing to look for in them. */
const nulFreeBodies = new WeakSet<object>();

/**
 * The application/json body parser: read within the body rules (raw-body.ts), the depth rule on
 * the text, then Fastify's own parser (prototype poisoning refused). An empty body is `undefined`
 * when `allowEmpty` (a DELETE on /mcp may name the type and send nothing), else Fastify's 400.
 */
export function jsonBodyParser(app: FastifyInstance, opts: { allowEmpty: boolean }): ReturnType<typeof bodyParser> {
  const json = app.getDefaultJsonParser('error', 'error');
  return bodyParser((request, bytes, done) => {
    const body = bytes.toString('utf8');
    if (body === '' && opts.allowEmpty) return done(null, undefined);
    if (nestsDeeperThan(body)) return done(new CallerInputError(tooDeepReason('the JSON body')));
    if (jsonTextMayHoldNul(body)) return json(request, body, done);
    json(request, body, (error, value) => {
      if (!error && typeof value === 'object' && value !== null) nulFreeBodies.add(value);
      done(error, value);
    });
  });
}

/** Registers the rules on `app` (before its routes, so every route and the not-found handler get them). */
export function refuseBadCallerInput(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', jsonBodyParser(app, { allowEmpty: false }));
  // Callback hooks, not async ones: they run on every request of the listener.
  app.addHook('onRequest', (request, _reply, done) => {
    const place = nulInTarget(request.url);
    done(place ? new CallerInputError(`${place} holds a NUL character, which is not accepted`) : undefined);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const { body } = request;
    const field = body === undefined || nulFreeBodies.has(body as object) ? undefined : nulField(body);
    done(field ? new CallerInputError(`${field === 'the body' ? field : `the field ${field}`} holds a NUL character, which is not accepted`) : undefined);
  });
}
