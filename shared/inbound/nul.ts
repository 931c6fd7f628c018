/**
 * NUL characters from callers. PostgreSQL text cannot hold U+0000 (error 22021), and no name,
 * parameter or field of ours has a use for it, so one rule holds on every route: a NUL in the
 * path, the query or a parsed body field is refused with 400 before any handler (and so any query)
 * runs. Raw bodies (uploads, webhook and endpoint bytes) are content, not fields: not checked.
 */

/** Whether the request target (path and query as sent) carries a NUL, percent-encoded or not. */
export function targetHasNul(url: string): boolean {
  return url.includes('\u0000') || /%00/i.test(url);
}

/**
 * Whether a parsed body (JSON value or form fields) holds a NUL in any string or key, at any depth.
 * Iterative, so no nesting can overflow the stack; bytes (Buffer, Uint8Array) are not fields.
 */
export function fieldsHaveNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object' && !ArrayBuffer.isView(item)) {
      for (const [key, field] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(field);
      }
    }
  }
  return false;
}
