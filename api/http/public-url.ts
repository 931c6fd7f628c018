/**
 * The public base URL a request is answered for: the configured one (no trailing slash) when there
 * is one, else the request's own scheme and Host — undefined when the Host is not a valid host.
 * Behind a TLS-terminating proxy the configured URL is the only right answer, so operators set it.
 */
export function publicBaseOf(configured: string | undefined, request: { protocol: string; host: string }): string | undefined {
  if (configured) return configured.replace(/\/+$/, '');
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}
