/**
 * One request to a configured export upstream (`toolkits.api.<name>`, `toolkits.graphql.<name>`,
 * a catalog instance): the configured headers and credentials added here, one deadline for the
 * whole exchange (body included), the answer's body cut off past `max_bytes`. Redirects are
 * followed only inside the upstream's scope (same origin, under the base path, an allowed prefix);
 * any other redirect is refused, so credentials never leave for another host. Messages name the
 * upstream and the path, never a credential or a query string.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PlatformConfig } from '../config/index.js';
import { cappedChunks, fetchFollowing, type RedirectRule } from '../http/index.js';
import { ResourceError, type UpstreamAnswer } from '../resources/index.js';
import { upstreamUrlProblem, type UpstreamScope } from './upstream-path.js';

export type UpstreamAuth = NonNullable<PlatformConfig['toolkits']['api'][string]['auth']>;

export interface HttpUpstream {
  /** What messages call it: `api "partner"`, `graphql "github"`. */
  name: string;
  headers: Readonly<Record<string, string>>;
  auth?: UpstreamAuth;
  timeoutMs: number;
  maxBytes: number;
  /** Where redirects may lead; without one, a redirect is refused. */
  scope?: UpstreamScope;
}

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  url: URL;
  /** A JSON body (POST). */
  json?: unknown;
  accept?: string;
}

const MAX_REDIRECTS = 5;

/** The headers a request carries: configured ones, then the credential (which wins over them). */
export function upstreamHeaders(upstream: Pick<HttpUpstream, 'headers' | 'auth'>, request: Pick<UpstreamRequest, 'json' | 'accept'>): Headers {
  const headers = new Headers(upstream.headers);
  if (request.accept) headers.set('accept', request.accept);
  if (request.json !== undefined) headers.set('content-type', 'application/json');
  const auth = upstream.auth;
  if (auth?.type === 'bearer') headers.set('authorization', `Bearer ${auth.token}`);
  else if (auth?.type === 'basic') headers.set('authorization', `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`);
  else if (auth?.type === 'header') headers.set(auth.name, auth.value);
  return headers;
}

/** An error message without what a credential or a query string could hold. */
function where(upstream: HttpUpstream, url: URL): string {
  return `${upstream.name} (${url.pathname})`;
}

const tooLargeError = (name: string, maxBytes: number) => new ResourceError('too_large', `${name} answered more than its max_bytes of ${maxBytes} bytes; nothing was stored`);

/** The body as a Node stream that fails past `maxBytes` (the store then keeps nothing). */
function cappedBody(body: ReadableStream<Uint8Array> | null, maxBytes: number, name: string): Readable {
  if (!body) return Readable.from([]);
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  // fromWeb reads ahead at once: an upstream that breaks off before the store reads errors this
  // stream with nobody listening yet. The capped reader below still sees the error when it reads.
  source.on('error', () => undefined);
  return Readable.from(cappedChunks(source, maxBytes, () => tooLargeError(name, maxBytes)));
}

/** Redirects an upstream follows: inside its scope, at most MAX_REDIRECTS of them; none without a scope. */
function redirectRule(upstream: HttpUpstream): RedirectRule {
  return {
    max: MAX_REDIRECTS,
    target(location, from) {
      const target = URL.canParse(location, from) ? new URL(location, from) : undefined;
      const problem = !upstream.scope ? 'this upstream is not redirected' : !target ? 'not a URL' : upstreamUrlProblem(target, upstream.scope);
      if (problem) throw new ResourceError('upstream', `${where(upstream, from)} redirected elsewhere (${problem}); the redirect was not followed and nothing was stored`);
      return target!;
    },
    tooMany: (from) => new ResourceError('upstream', `${where(upstream, from)} redirected more than ${MAX_REDIRECTS} times; nothing was stored`),
  };
}

/** An answer whose body is still streaming, and the deadline its reads run under. */
export interface OpenedUpstream {
  answer: UpstreamAnswer;
  /** Aborts when the call is cancelled or the upstream's timeout passes. */
  deadline: AbortSignal;
  /** Where the answer came from (after redirects). */
  url: URL;
}

/**
 * Sends the request and answers with the upstream's status and its body still streaming.
 * `signal` (the call's) and the upstream's timeout both abort the exchange, body reads included.
 */
export async function openUpstream(upstream: HttpUpstream, request: UpstreamRequest, signal: AbortSignal): Promise<OpenedUpstream> {
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(upstream.timeoutMs)]);
  let url = request.url;
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const rule = redirectRule(upstream);
  try {
    const { response } = await fetchFollowing(
      { url, method: request.method, headers: upstreamHeaders(upstream, request), ...(body !== undefined ? { body } : {}), signal: deadline },
      // Each redirect followed moves `url`, so a failure names where the exchange was.
      { ...rule, target: (location, from) => (url = rule.target(location, from)) },
    );
    // A body declared past the cap is refused before any of it reaches the store (an encoded one is counted as it is decoded).
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    if (!encoded && declared > upstream.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLargeError(where(upstream, url), upstream.maxBytes);
    }
    const answer: UpstreamAnswer = {
      status: response.status,
      statusText: response.statusText,
      ...(response.headers.get('content-type') ? { contentType: response.headers.get('content-type')! } : {}),
      body: cappedBody(response.body, upstream.maxBytes, upstream.name),
      name: where(upstream, url),
    };
    return { answer, deadline, url };
  } catch (error) {
    throw upstreamFailure(upstream, url, error, deadline, signal);
  }
}

/**
 * What a failed exchange (or export) reports: the caller's cancellation, the timeout, a refusal
 * as it is, or the network error.
 */
export function upstreamFailure(upstream: HttpUpstream, url: URL, error: unknown, deadline: AbortSignal, caller: AbortSignal): unknown {
  if (caller.aborted) return new ResourceError('upstream', `the export from ${where(upstream, url)} was cancelled; nothing was stored`);
  if (deadline.aborted) return new ResourceError('upstream', `${where(upstream, url)} gave no complete answer within ${upstream.timeoutMs} ms; nothing was stored`);
  if (error instanceof ResourceError) return error;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  return new ResourceError('upstream', `cannot reach ${where(upstream, url)}${typeof cause === 'string' ? ` (${cause})` : ''}; nothing was stored`);
}
