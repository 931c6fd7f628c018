/**
 * Resource indicators (RFC 8707) for the one resource our tokens are for: the MCP endpoint.
 * Clients spell it differently (a trailing slash, upper-case scheme or host, the bare origin, or
 * not at all — MCP authorization notes 2.6), so a request is compared after normalising, an
 * origin-only value covers our endpoint, and an absent one means our endpoint. Anything else is
 * `invalid_target`: we issue no tokens for other audiences.
 *
 * On a loopback deployment (the issuer is `http://127.0.0.1:<port>`, `localhost` or `[::1]`) the
 * other loopback names of the same scheme and port are the same endpoint: a client told to use
 * `http://localhost:8080/mcp` reaches the same listener as the issuer's 127.0.0.1, learns the
 * resource in its own spelling (protected-resource metadata) and asks for it. Never for any other
 * host: a public deployment's resource is exactly its own.
 */
import { isLoopbackHostname } from './redirect-uris.js';

function parse(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function normalise(url: URL, value: string): string | undefined {
  if (url.hash !== '' || value.includes('#')) return undefined;
  // URL lower-cases scheme and host; drop one trailing slash of the path.
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  return `${url.origin}${path}${url.search}`;
}

function isLoopbackUrl(url: URL): boolean {
  return url.protocol === 'http:' && isLoopbackHostname(url.hostname);
}

/** `asked` in the host spelling of `ours` when both name loopback on the same scheme and port; else unchanged. */
function inOurLoopbackSpelling(asked: URL, ours: URL): URL {
  if (!isLoopbackUrl(ours) || !isLoopbackUrl(asked) || asked.port !== ours.port) return asked;
  const respelled = new URL(asked.href);
  respelled.hostname = ours.hostname;
  return respelled;
}

/** The canonical resource a request names, or undefined when it names something else. */
export function resolveResource(requested: string | undefined, canonical: string): string | undefined {
  if (requested === undefined || requested === '') return canonical;
  const askedUrl = parse(requested);
  const oursUrl = parse(canonical);
  if (askedUrl === undefined || oursUrl === undefined) return undefined;
  const asked = normalise(inOurLoopbackSpelling(askedUrl, oursUrl), requested);
  const ours = normalise(oursUrl, canonical);
  if (asked === undefined || ours === undefined) return undefined;
  if (asked === ours) return canonical;
  return asked === oursUrl.origin ? canonical : undefined;
}

/**
 * The public base URL as a request addressed it: `base` itself, except on a loopback deployment
 * reached through another loopback name on the same port (a request with `Host: localhost:8080`
 * to a platform whose base is `http://127.0.0.1:8080`), which gets its own spelling back — the
 * MCP client checks the protected-resource metadata's `resource` against the URL it was given.
 */
export function loopbackSpellingOf(base: string, requestHost: string | undefined): string {
  const ours = parse(base);
  const asked = requestHost ? parse(`http://${requestHost}`) : undefined;
  if (!ours || !asked || asked.username !== '' || asked.pathname !== '/' || asked.search !== '') return base;
  if (!isLoopbackUrl(ours) || !isLoopbackHostname(asked.hostname) || asked.port !== ours.port) return base;
  const respelled = new URL(ours.href);
  respelled.hostname = asked.hostname;
  return `${respelled.origin}${ours.pathname.replace(/\/+$/, '')}`;
}
