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

/** Headers a browser keeps from another origin than the one they were written for. */
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Sends the request and follows redirects under `rule`. As browsers do, 303 (and 301/302 after a
 * POST) continue as a GET without the body, and credentials are not carried to another origin.
 */
export async function fetchFollowing(request: HttpRequest, rule?: RedirectRule): Promise<HttpAnswer> {
  let { url, method, headers, body } = request;
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, { method, ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}), redirect: 'manual', signal: request.signal });
    const location = response.headers.get('location');
    if (!rule || response.status < 300 || response.status >= 400 || !location) return { response, url };
    await response.body?.cancel();
    const target = rule.target(location, url);
    if (hop >= rule.max) throw rule.tooMany(url);
    if (headers && target.origin !== url.origin) {
      headers = new Headers(headers);
      for (const name of credentialHeaders) headers.delete(name);
    }
    url = target;
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}
