/**
 * NUL characters from callers. PostgreSQL text cannot hold U+0000 (error 22021), and no name,
 * parameter or field of ours has a use for it, so one rule holds on every route: a NUL in the
 * path, the query or a parsed body field is refused with 400 before any handler (and so any query)
 * runs. Raw bodies (uploads, webhook and endpoint bytes) are content, not fields: not checked.
 */

/**
 * Where the request target (path and query as sent) carries a NUL, percent-encoded or not: `the
 * path`, `the query parameter <name>`, or undefined when it carries none.
 */
export function nulInTarget(url: string): string | undefined {
  const has = (text: string) => text.includes('\u0000') || /%00/i.test(text);
  if (!has(url)) return undefined;
  const at = url.indexOf('?');
  if (at < 0 || has(url.slice(0, at))) return 'the path';
  for (const pair of url.slice(at + 1).split('&')) {
    if (!has(pair)) continue;
    const name = pair.split('=')[0]!;
    return has(name) ? 'a query parameter name' : `the query parameter ${decodeName(name)}`;
  }
  return 'the query';
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * Whether parsing this JSON text can yield a NUL in a string or a key. JSON writes U+0000 only as
 * the escape `\u0000` (a raw control character is not JSON), so a text without those six
 * characters cannot; with them (even as part of `\\u0000`) the parsed value must be checked.
 */
export function jsonTextMayHoldNul(text: string): boolean {
  return text.includes('\\u0000');
}

/**
 * The first field of a parsed body (JSON value or form fields) holding a NUL in a string or a key,
 * at any depth, as a path (`description`, `tags[1]`, `a.b`); undefined when none does. Iterative,
 * so no nesting can overflow the stack; bytes (Buffer, Uint8Array) are not fields.
 */
export function nulField(value: unknown): string | undefined {
  const pending: Array<[unknown, string]> = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path || 'the body';
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], `${path}[${i}]`]);
    } else if (item !== null && typeof item === 'object' && !ArrayBuffer.isView(item)) {
      for (const [key, field] of Object.entries(item).reverse()) {
        if (key.includes('\u0000')) return path ? `a key in ${path}` : 'a key';
        pending.push([field, path ? `${path}.${key}` : key]);
      }
    }
  }
  return undefined;
}
