/**
 * Resource indicators (RFC 8707) for the one resource our tokens are for: the MCP endpoint.
 * Clients spell it differently (a trailing slash, upper-case scheme or host, the bare origin, or
 * not at all — MCP authorization notes 2.6), so a request is compared after normalising, an
 * origin-only value covers our endpoint, and an absent one means our endpoint. Anything else is
 * `invalid_target`: we issue no tokens for other audiences.
 */

function normalise(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.hash !== '' || value.includes('#')) return undefined;
    // URL lower-cases scheme and host; drop one trailing slash of the path.
    const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
    return `${url.origin}${path}${url.search}`;
  } catch {
    return undefined;
  }
}

/** The canonical resource a request names, or undefined when it names something else. */
export function resolveResource(requested: string | undefined, canonical: string): string | undefined {
  if (requested === undefined || requested === '') return canonical;
  const asked = normalise(requested);
  const ours = normalise(canonical);
  if (asked === undefined || ours === undefined) return undefined;
  if (asked === ours) return canonical;
  return asked === new URL(canonical).origin ? canonical : undefined;
}
