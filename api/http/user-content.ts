/**
 * Headers for bytes a user supplied and the platform serves from its own origin (presigned GETs of
 * the filesystem driver, resource content, later previews). Whatever the bytes claim to be, a
 * browser must not run them as our page: no sniffing, no script, no plugins, and a download unless
 * the type is one a browser only displays.
 */

/**
 * Types shown inline: images other than SVG (SVG carries script), PDF (rendered by the browser's
 * own viewer, sandboxed by the CSP below), and plain text. Everything else is an attachment.
 */
const inlineTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf', 'text/plain']);

/** The media type without parameters, lower-cased (`Text/Plain; charset=utf-8` → `text/plain`). */
function mediaType(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

function isInlineSafe(contentType: string): boolean {
  return inlineTypes.has(mediaType(contentType));
}

/** `attachment` or `inline` with an ASCII fallback name and the RFC 5987 UTF-8 name. */
function contentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The protective headers for one user-supplied body. `fileName` names the download (the last key
 * segment of an object, a resource's file name).
 */
export function userContentHeaders(contentType: string, fileName: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': contentDisposition(fileName, isInlineSafe(contentType) ? 'inline' : 'attachment'),
  };
}

/** The `Content-Range` of a 416 answer: the representation's full size (RFC 9110 §14.4). */
export function unsatisfiedRange(size: number): string {
  return `bytes */${size}`;
}
