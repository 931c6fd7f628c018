/**
 * Which URLs api_export may request (pure). A request names a path under the upstream's
 * `base_url`, inside one of its `allowed_paths` prefixes, and it is sent with the upstream's
 * credential, so the path must mean to every server what it means to this check. Anything a
 * server could resolve differently is refused before a request is made, in the path as written
 * and again after percent-decoding and after Unicode (NFKC) normalisation, as servers variously
 * do before resolving: an absolute or protocol-relative URL; `.` and `..` segments (and segments of
 * dots and spaces, which Windows servers trim to those); empty segments (`//`, which servers merge);
 * `;` path parameters (Java servers drop `..;` to `..`); backslashes; percent-encoded dots,
 * slashes, backslashes, semicolons, percent signs (double encoding), `?`, `#` and control
 * characters, in either case; malformed or overlong encodings; a query or fragment written into
 * the path; a decoded path outside the allowed prefixes. The URL built is checked again after the
 * WHATWG parser normalised it, and every redirect target passes the same check (same origin, under
 * the base path, inside an allowed prefix).
 */

export interface UpstreamScope {
  /** The upstream's base URL (`toolkits.api.<name>.base_url`). */
  baseUrl: string;
  /** Prefixes of the path under the base URL a request may name; ['/'] allows everything under it. */
  allowedPaths: readonly string[];
}

/** Query parameters an api_export request adds to the URL. */
export type QueryParams = Readonly<Record<string, string | number | boolean>>;

/** Refused in the path as written. */
const unsafeCharacters = /[\u0000-\u0020\u007f\\?#;]/;
/** Percent-escapes of what path resolution reads: controls, `#`, `%`, `.`, `/`, `;`, `?`, `\`. */
const encodedEscape = /%(?:[01][0-9a-f]|7f|23|25|2e|2f|3b|3f|5c)/i;
/** Refused in a decoded (or normalised) path: what decoding once more or resolving would act on. */
const decodedUnsafe = /[\u0000-\u001f\u007f\\?#;%]/;
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

/** A segment of dots, or of dots and whitespace (trimmed by some servers to `.` or `..`). */
const dotSegment = (segment: string) => /^\.+$/.test(segment.replace(/\s/g, ''));

/** The path as servers may read it: percent-decoded, then also NFKC-normalised; undefined when malformed. */
function readings(path: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  return [decoded, decoded.normalize('NFKC')];
}

const slashes = (text: string) => text.split('/').length;

/** Why `path` may not be requested, or undefined when it may (before any URL is built). */
export function upstreamPathProblem(path: string, scope: UpstreamScope): string | undefined {
  if (scheme.test(path) || path.startsWith('//')) return 'path must be a path under the upstream, not a URL';
  if (!path.startsWith('/')) return 'path must start with /';
  if (unsafeCharacters.test(path)) {
    return 'path may not hold spaces, control characters, backslashes, ; (path parameters), ? or # (give query parameters in query)';
  }
  if (encodedEscape.test(path)) return 'path may not hold percent-encoded dots, slashes, backslashes, semicolons, percent signs, ?, # or control characters';
  const decoded = readings(path);
  if (!decoded) return 'path holds a malformed or overlong percent-encoding';
  if (decoded.some((text) => decodedUnsafe.test(text) || slashes(text) !== slashes(path))) {
    return 'path decodes or normalises to slashes, backslashes, ;, %, ?, # or control characters, which a server could resolve differently';
  }
  for (const text of [path, ...decoded]) {
    if (text.includes('//')) return 'path may not hold empty segments (//)';
    if (text.split('/').some(dotSegment)) return 'path may not hold . or .. segments';
    if (!scope.allowedPaths.some((prefix) => insidePrefix(text, prefix))) {
      return `path ${path} is outside the upstream's allowed paths (${scope.allowedPaths.join(', ')})`;
    }
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
