/**
 * Redirect URI rules (OAuth 2.1 §2.3.1, §4.1.3; RFC 8252 §7.3; MCP authorization notes 2.5-2.6):
 * exact string matching against what the client registered, except that the port of a loopback
 * IP or `localhost` redirect may differ (native clients such as Claude Code and the MCP Inspector
 * pick a port per run). A redirect URI is an absolute URL without a fragment.
 */

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** An absolute URL with no fragment and no credentials; anything else can never be a redirect URI. */
export function isWellFormedRedirectUri(uri: string): boolean {
  const url = parse(uri);
  return url !== undefined && !uri.includes('#') && url.username === '' && url.password === '' && url.protocol !== 'javascript:' && url.protocol !== 'data:';
}

/** `localhost`, 127.0.0.1 or [::1]: a name that never leaves the machine (RFC 8252 §7.3). */
export function isLoopbackHostname(hostname: string): boolean {
  return loopbackHosts.has(hostname.toLowerCase());
}

function isLoopback(url: URL): boolean {
  return url.protocol === 'http:' && isLoopbackHostname(url.hostname);
}

/** Does `requested` name one of the `registered` URIs (exactly, or a loopback one on another port)? */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (!isWellFormedRedirectUri(requested)) return false;
  if (registered.includes(requested)) return true;
  const asked = parse(requested)!;
  if (!isLoopback(asked)) return false;
  return registered.some((candidate) => {
    const url = parse(candidate);
    if (!url || !isLoopback(url)) return false;
    // Same everything but the port: scheme, host, path and query compared exactly.
    return url.hostname === asked.hostname && url.pathname === asked.pathname && url.search === asked.search;
  });
}

/** Compiles `oauth.dcr.allowed_redirect_patterns`: each must match a whole URI (anchored), never a part of it. */
export function compileRedirectPatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((p) => new RegExp(`^(?:${p})$`, 'u'));
}

/**
 * The spellings of `uri` a pattern is tried against: the URI itself and, for an http loopback
 * URI with a port, the same URI without it — the port is the client's choice per run (RFC 8252
 * §7.3), so a pattern naming a loopback callback without a port admits it on any port. Only
 * loopback http URIs lose their port: every other redirect is matched exactly as written.
 */
function patternCandidates(uri: string): string[] {
  const url = parse(uri)!;
  if (!isLoopback(url) || url.port === '' || !/^http:\/\//i.test(uri)) return [uri];
  // Cut the port out of the authority as written (no credentials: the URI is well formed), the rest untouched.
  const start = uri.indexOf('//') + 2;
  const length = uri.slice(start).search(/[/?]|$/);
  const authority = uri.slice(start, start + length).replace(/:\d+$/, '');
  return [uri, `${uri.slice(0, start)}${authority}${uri.slice(start + length)}`];
}

/** A URI a dynamically registered client may use: well formed and matching one of the patterns. */
export function redirectUriAllowedByPatterns(uri: string, patterns: readonly RegExp[]): boolean {
  if (!isWellFormedRedirectUri(uri)) return false;
  const candidates = patternCandidates(uri);
  return patterns.some((p) => candidates.some((candidate) => p.test(candidate)));
}
