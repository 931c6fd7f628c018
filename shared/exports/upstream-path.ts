/**
 * Which URLs api_export may request (pure). A request names a path under the upstream's
 * `base_url`, inside one of its `allowed_paths` prefixes; everything that could step outside is
 * refused before a request is made: an absolute or protocol-relative URL, `.` and `..` segments,
 * percent-encoded dots, slashes, backslashes and percent signs (encoded traversal, double encoding),
 * backslashes, control characters, a query or fragment written into the path. The URL built is
 * checked again after the WHATWG parser normalised it, and every redirect target passes the same
 * check (same origin, under the base path, inside an allowed prefix).
 */

export interface UpstreamScope {
  /** The upstream's base URL (`toolkits.api.<name>.base_url`). */
  baseUrl: string;
  /** Prefixes of the path under the base URL a request may name; ['/'] allows everything under it. */
  allowedPaths: readonly string[];
}

/** Query parameters an api_export request adds to the URL. */
export type QueryParams = Readonly<Record<string, string | number | boolean>>;

/** Refused path text: what the upstream would read differently from how we checked it. */
const encodedEscape = /%(2e|2f|5c|25|00)/i;
const unsafeCharacters = /[\u0000-\u0020\u007f\\?#]/;
const scheme = /^[a-z][a-z0-9+.-]*:/i;

/** The base URL's path, with one trailing slash removed ('' for the root). */
function basePath(base: URL): string {
  return base.pathname.replace(/\/$/, '');
}

/** Whether `path` (under the base) lies inside `prefix`, on a segment boundary. */
function insidePrefix(path: string, prefix: string): boolean {
  if (prefix === '/' || prefix === '') return true;
  if (prefix.endsWith('/')) return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Why `path` may not be requested, or undefined when it may (before any URL is built). */
export function upstreamPathProblem(path: string, scope: UpstreamScope): string | undefined {
  if (scheme.test(path) || path.startsWith('//')) return 'path must be a path under the upstream, not a URL';
  if (!path.startsWith('/')) return 'path must start with /';
  if (unsafeCharacters.test(path)) return 'path may not hold spaces, control characters, backslashes, ? or # (give query parameters in query)';
  if (encodedEscape.test(path)) return 'path may not hold percent-encoded dots, slashes, backslashes or percent signs';
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return 'path may not hold . or .. segments';
  if (!scope.allowedPaths.some((prefix) => insidePrefix(path, prefix))) {
    return `path ${path} is outside the upstream's allowed paths (${scope.allowedPaths.join(', ')})`;
  }
  return undefined;
}

/** Why a built (or redirected-to) URL is off the upstream, or undefined when it is inside. */
export function upstreamUrlProblem(url: URL, scope: UpstreamScope): string | undefined {
  const base = new URL(scope.baseUrl);
  if (url.origin !== base.origin) return 'the URL leaves the upstream (another host, port or scheme)';
  if (url.username || url.password) return 'the URL may not carry credentials';
  const root = basePath(base);
  if (url.pathname !== root && !url.pathname.startsWith(`${root}/`)) return "the URL leaves the upstream's base path";
  const rest = url.pathname.slice(root.length) || '/';
  return upstreamPathProblem(rest, scope);
}

/** The URL of a request to `path` with `query`, or the reason it is refused. */
export function upstreamUrl(scope: UpstreamScope, path: string, query: QueryParams = {}): { url: URL } | { problem: string } {
  const problem = upstreamPathProblem(path, scope);
  if (problem) return { problem };
  const base = new URL(scope.baseUrl);
  const url = new URL(base.origin);
  url.pathname = `${basePath(base)}${path}`;
  for (const [key, value] of Object.entries(query)) url.searchParams.append(key, String(value));
  const after = upstreamUrlProblem(url, scope);
  return after ? { problem: after } : { url };
}
