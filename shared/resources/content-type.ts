/** The content type recorded for an upload: the declared one, else one derived from the file name. */
import mime from 'mime-types';

export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/** Type derived from the extension ('a.csv' → 'text/csv'), or undefined. */
export function contentTypeFromName(fileName: string): string | undefined {
  const t = mime.lookup(fileName);
  return t === false ? undefined : t;
}

/**
 * Declared wins unless it is missing or the generic octet-stream (browsers send that for
 * unknown files), in which case the extension decides.
 */
export function chooseContentType(fileName: string, declared: string | undefined): string {
  const d = declared?.trim();
  if (d && d.toLowerCase() !== FALLBACK_CONTENT_TYPE) return d;
  return contentTypeFromName(fileName) ?? d ?? FALLBACK_CONTENT_TYPE;
}
