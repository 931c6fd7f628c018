/**
 * Credentials that travel in URLs, hidden wherever a URL may be written down (request logs, error
 * messages, audit rows). Pure functions.
 */

export const REDACTED = '[redacted]';

/**
 * Parts of a parameter name (lower-cased, separators removed) that make its value a credential:
 * api_key, access_token, X-Amz-Credential, X-Amz-Security-Token, X-Objstore-Signature, password,
 * client_secret, sessionId (the legacy SSE session is a capability), … Over-matching (`keyword`,
 * `author`) only hides a harmless value from a log line.
 */
const secretNameParts = ['key', 'token', 'secret', 'pass', 'pwd', 'signature', 'credential', 'auth', 'cookie', 'session', 'jwt'];
/**
 * Short names that are credentials only as a whole name: `sig` (SAS signatures), and OAuth's
 * `code` (exchangeable for tokens) and `state` (binds the callback to the browser that started it).
 */
const secretNames = new Set(['sig', 'code', 'state', 'pw']);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** Whether a query parameter of this name carries a credential (case-insensitive, any separator). */
export function isSecretParamName(name: string): boolean {
  const compact = decodedName(name).toLowerCase().replace(/[^a-z0-9]/g, '');
  return secretNames.has(compact) || secretNameParts.some((part) => compact.includes(part));
}

// `name=value` after `?`, `&` or `;`, in a URL or anywhere in free text. A value ends at the next
// separator, `?` (so a URL nested unencoded in another's query is still scanned), whitespace or quote.
const queryParam = /([?&;])([^?&;=#\s"'<>]+)=([^?&;\s"'<>]*)/g;
// `scheme://user:password@host`: keep the user, hide the password.
const userinfoPassword = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):([^\s/?#@]*)@/gi;

/**
 * `text` with the values of secret-named query parameters and URL passwords replaced by
 * `[redacted]`. Works on a bare URL, a path with its query, or a message that quotes URLs.
 */
export function redactUrlSecrets(text: string): string {
  // Neither pattern can match without its '=' or '@' (most audited strings and log lines have neither).
  if (!text.includes('=') && !text.includes('@')) return text;
  return text
    .replace(userinfoPassword, `$1:${REDACTED}@`)
    .replace(queryParam, (whole, sep: string, name: string) => (isSecretParamName(name) ? `${sep}${name}=${REDACTED}` : whole));
}

// Webhook sources with `path_token` authentication carry their secret as a path segment (spec 3).
const hookPathToken = /^(\/hooks\/[^/?#]+\/)[^/?#]+/;

/** A request's URL (path and query) as a log line may show it: path tokens and secret parameters hidden. */
export function redactRequestUrl(url: string): string {
  return redactUrlSecrets(url.startsWith('/hooks/') ? url.replace(hookPathToken, `$1${REDACTED}`) : url);
}
