/**
 * One HTTP exchange with redirects handled here, never by fetch: each redirect target is checked by
 * the caller's rule before it is requested, so credentials and requests only go where the caller
 * allows. Without a rule a redirect is not followed (the 3xx answer is returned as it is).
 */

export interface HttpRequest {
  url: URL;
  method: string;
  headers?: Headers;
  body?: string;
  signal: AbortSignal;
}

export interface RedirectRule {
  /** Redirects followed at most; one more is refused with `tooMany`. */
  max: number;
  /** Where a redirect to `location` (as the answer of `from` wrote it) leads; throws to refuse it. */
  target(location: string, from: URL): URL;
  tooMany(from: URL): Error;
}

/** The answer (its body unread) and the URL it came from, after any redirects followed. */
export interface HttpAnswer {
  response: Response;
  url: URL;
}

/**
 * Headers carried to another origin: none of the others, which may be credentials a browser would
 * not know as such (a script's `x-api-key`, an upstream's `auth.type: header`).
 */
const crossOriginHeaders = new Set(['accept', 'accept-language', 'content-type', 'content-language', 'user-agent']);
/** The statuses that redirect (300 asks the client to choose, 304 is a cache answer, 305 is obsolete). */
const redirecting = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a body, dropped with it when a redirect continues as a GET. */
const bodyHeaders = ['content-type', 'content-encoding', 'content-language', 'content-location', 'content-length'];

/**
 * Sends the request and follows redirects under `rule`. As browsers do, 303 (and 301/302 after a
 * POST) continue as a GET without the body or the headers describing it; to another origin only
 * the headers of crossOriginHeaders go along. Only 301, 302, 303, 307 and 308 redirect.
 */
export async function fetchFollowing(request: HttpRequest, rule?: RedirectRule): Promise<HttpAnswer> {
  let { url, method, headers, body } = request;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method, ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}), redirect: 'manual', signal: request.signal });
    const location = response.headers.get('location');
    if (!rule || !redirecting.has(response.status) || !location) return { response, url };
    await response.body?.cancel();
    const target = rule.target(location, url);
    if (hop >= rule.max) throw rule.tooMany(url);
    if (headers && target.origin !== url.origin) {
      headers = new Headers([...headers].filter(([name]) => crossOriginHeaders.has(name)));
    }
    url = target;
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      if (headers) {
        headers = new Headers(headers);
        for (const name of bodyHeaders) headers.delete(name);
      }
    }
  }
}
