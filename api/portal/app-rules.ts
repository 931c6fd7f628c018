/**
 * Pure rules of serving the portal's build (PORTAL.md, "How it is served"): which file an address
 * is, how long a browser may keep it, and the page's Content-Security-Policy.
 */

/** Where the build's hashed files live; only they may be cached for long. */
export const assetsPrefix = 'assets/';

/** Addresses under /portal/ that belong to other routes (sign-in, the public viewer), never the app. */
export const reservedPrefixes = ['auth/', 'view/', 'view-brand/'];

/** A year, immutable: hashed names change whenever their bytes do. */
export const immutableCache = 'public, max-age=31536000, immutable';
/** index.html and the unhashed files: always asked again, so a new build is seen at once. */
export const revalidateCache = 'no-cache';

export type PortalFileAnswer = { kind: 'file'; name: string } | { kind: 'app' } | { kind: 'missing' };

/**
 * What `/portal/<rest>` answers: a file of the build when there is one by that name, 404 for a
 * missing hashed file (an old page asking for a build that is gone must not get HTML as script;
 * a name under assets/ without an extension is an address of the app's asset pages), else the app's index.html, whose router shows the address (every portal address falls back).
 */
export function portalFileFor(rest: string, has: (name: string) => boolean): PortalFileAnswer {
  const name = rest.replace(/^\/+/, '');
  if (name !== '' && name !== 'index.html' && has(name)) return { kind: 'file', name };
  // A build file's name has an extension; /portal/assets/<id> and /portal/assets/shared are the app's asset pages.
  if (name.startsWith(assetsPrefix) && /\.[A-Za-z0-9]+$/.test(name)) return { kind: 'missing' };
  return { kind: 'app' };
}

/** The origins of configured logo URLs (`portal.logo*`): the only images from elsewhere the page may show. */
export function logoOrigins(urls: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (!/^https?:\/\//i.test(url)) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Not a URL: the page shows no logo from it.
    }
  }
  return [...origins].sort();
}

/**
 * The only style elements the page may add: react-aria-components inserts these two fixed rules
 * (usePress: touch-action on pressable elements; usePreventScroll: overscroll while a modal is
 * open). Their hashes allow exactly that text, never inline style in general; a library update that
 * changes them shows as a CSP violation in the browser tests.
 */
export const libraryStyleHashes = ['38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o=', 'gYiS/BvZvRcK27JIXTuwhZ3hs2+VJ1X+2gUlE+farlg='];

/**
 * The portal page's policy: its own script and styles only (no inline script, no eval), images
 * from itself, data/blob URLs (thumbnails, previews) and the configured logos, requests to its own
 * origin only, and never framed.
 */
export function portalContentSecurityPolicy(imageOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self'${libraryStyleHashes.map((h) => ` 'sha256-${h}'`).join('')}`,
    `img-src 'self' data: blob:${imageOrigins.map((o) => ` ${o}`).join('')}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
