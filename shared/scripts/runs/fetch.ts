/**
 * `platform.fetch(url, init)`: the host process makes the request for the script, which never
 * opens sockets. Only hosts on `scripts.fetch.allow_hosts` are reached (exact host names, case
 * insensitive; none by default), over http or https; redirects are followed here, each target
 * checked against the same list; one timeout bounds the whole exchange and the body is cut off
 * (refused) past `max_response_bytes`. The answer is `{status, headers, body}` with the body as text.
 */
import { z } from 'zod';

export interface FetchPolicy {
  allowHosts: readonly string[];
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface FetchAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const maxRedirects = 5;

export const fetchInit = z
  .strictObject({
    method: z.string().regex(/^[A-Za-z]+$/).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
  })
  .optional();

export type FetchInit = z.output<typeof fetchInit>;

/** Why `url` may not be fetched, or undefined when its host is allowed (pure). */
export function fetchRefusal(url: URL, allowHosts: readonly string[]): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `platform.fetch: only http and https URLs are fetched, not ${url.protocol}`;
  const host = url.hostname.toLowerCase();
  if (!allowHosts.some((allowed) => allowed.toLowerCase() === host)) {
    return `platform.fetch: the host ${host} is not on scripts.fetch.allow_hosts`;
  }
  return undefined;
}

function parseUrl(text: string, what: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new Error(`${what}: not a URL: ${text}`);
  }
}

async function readCapped(response: Response, max: number, url: URL): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > max) throw new Error(`platform.fetch: the response of ${url.host} is larger than ${max} bytes (scripts.fetch.max_response_bytes)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const credentialHeaders = new Set(['authorization', 'cookie', 'proxy-authorization']);

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !credentialHeaders.has(name.toLowerCase())));
}

/** An upstream's answer whose body is still unread (the caller reads or cancels it), and where it came from. */
export interface OpenedFetch {
  response: Response;
  url: URL;
  /** Aborts at the policy's timeout: the body's reads fail past it. */
  signal: AbortSignal;
}

/**
 * Makes the request under the policy: the allow-list checked for the URL and every redirect
 * target, redirects followed here. One timeout bounds the exchange, body included. `what` names
 * the platform function in errors.
 */
export async function openFetch(policy: Pick<FetchPolicy, 'allowHosts' | 'timeoutMs'>, urlText: string, init: FetchInit, what = 'platform.fetch'): Promise<OpenedFetch> {
  let url = parseUrl(urlText, what);
  const signal = AbortSignal.timeout(policy.timeoutMs);
  let method = (init?.method ?? 'GET').toUpperCase();
  let body = init?.body;
  let headers = init?.headers;
  try {
    for (let hop = 0; ; hop++) {
      const refusal = fetchRefusal(url, policy.allowHosts);
      if (refusal) throw new Error(refusal.replace('platform.fetch', what));
      const response = await fetch(url, { method, ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}), redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= maxRedirects) throw new Error(`${what}: more than ${maxRedirects} redirects`);
        const from = url;
        url = parseUrl(location, what, url);
        // As browsers do: credentials go to the origin they were written for, not to where it redirects.
        if (headers && url.origin !== from.origin) headers = withoutCredentials(headers);
        // As browsers do: 303 (and 301/302 after a POST) continue as a GET without the body.
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      return { response, url, signal };
    }
  } catch (error) {
    throw timedOut(signal, error, what, url, policy.timeoutMs);
  }
}

/** The error to throw for a failed exchange: the timeout's own message when it was the timeout. */
export function timedOut(signal: AbortSignal, error: unknown, what: string, url: URL, timeoutMs: number): unknown {
  return signal.aborted ? new Error(`${what}: no complete answer from ${url.host} within ${timeoutMs} ms`) : error;
}

export async function scriptFetch(policy: FetchPolicy, urlText: string, init: FetchInit): Promise<FetchAnswer> {
  const { response, url, signal } = await openFetch(policy, urlText, init);
  try {
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await readCapped(response, policy.maxResponseBytes, url) };
  } catch (error) {
    throw timedOut(signal, error, 'platform.fetch', url, policy.timeoutMs);
  }
}
