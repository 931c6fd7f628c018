/**
 * `platform.fetch(url, init)`: the host process makes the request for the script, which never
 * opens sockets. Only hosts and ports on `scripts.fetch.allow_hosts` are reached (exact hosts; a
 * bare host allows its scheme's default port only, `host:port` that port, `host:*` any: see
 * http/allowed-hosts.ts; none by default), over http or https; redirects are followed here, each
 * target checked against the same list; one timeout bounds the whole exchange and the body is cut off
 * (refused) past `max_response_bytes`. The answer is `{status, headers, body}` with the body as text.
 */
import { z } from 'zod';
import { fetchFollowing, hostAllowed, hostRules, readCappedText, type RedirectRule } from '../../http/index.js';

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

/** Why `url` may not be fetched, or undefined when its host and port are allowed (pure). */
export function fetchRefusal(url: URL, allowHosts: readonly string[]): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `platform.fetch: only http and https URLs are fetched, not ${url.protocol}`;
  const verdict = hostAllowed(url, hostRules(allowHosts));
  if (verdict.allowed) return undefined;
  const host = url.hostname;
  if (!verdict.hostListed) return `platform.fetch: the host ${host} is not on scripts.fetch.allow_hosts`;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `platform.fetch: port ${port} of ${host} is not on scripts.fetch.allow_hosts (a bare host allows only its scheme's default port; ${host}:${port} would allow this one)`;
}

function parseUrl(text: string, what: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch {
    throw new Error(`${what}: not a URL: ${text}`);
  }
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
  const refused = (target: URL) => {
    const refusal = fetchRefusal(target, policy.allowHosts);
    if (refusal) throw new Error(refusal.replace('platform.fetch', what));
    return target;
  };
  const redirects: RedirectRule = {
    max: maxRedirects,
    // Each redirect target is checked as the first URL is; `url` follows it, for the timeout's message.
    target: (location, from) => (url = refused(parseUrl(location, what, from))),
    tooMany: () => new Error(`${what}: more than ${maxRedirects} redirects`),
  };
  try {
    const headers = init?.headers ? new Headers(init.headers) : undefined;
    const request = { url: refused(url), method: (init?.method ?? 'GET').toUpperCase(), ...(headers ? { headers } : {}), ...(init?.body !== undefined ? { body: init.body } : {}), signal };
    const { response } = await fetchFollowing(request, redirects);
    return { response, url, signal };
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
    const tooLarge = () => new Error(`platform.fetch: the response of ${url.host} is larger than ${policy.maxResponseBytes} bytes (scripts.fetch.max_response_bytes)`);
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await readCappedText(response, policy.maxResponseBytes, tooLarge) };
  } catch (error) {
    throw timedOut(signal, error, 'platform.fetch', url, policy.timeoutMs);
  }
}
