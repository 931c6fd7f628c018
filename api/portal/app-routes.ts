/**
 * Serves the portal's build (portal/dist) at /portal/ (PORTAL.md, "How it is served"): the files
 * are read once when the api starts and kept in memory with their gzip form, so no request touches
 * the file system and no address can name a file outside the build. Hashed assets are cached for a
 * year, everything else is revalidated; every other /portal/ address answers index.html, where the
 * app's router shows it. Each answer carries the page's CSP (app-rules.ts).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import mime from 'mime-types';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import { assetsPrefix, immutableCache, portalContentSecurityPolicy, portalFileFor, revalidateCache } from './app-rules.js';
import { JSX_FRAME_PAGE, VIEWER_PAGE } from './asset-frame.js';

/** Built pages with routes of their own (the public viewer, the JSX frame): never served as files of the app. */
const ownPages = new Set([VIEWER_PAGE, JSX_FRAME_PAGE]);

interface BuiltFile {
  body: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  cache: string;
}

/** Types worth compressing (the rest are already compressed or tiny). */
const compressible = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** The build as served: name (with `/`) → bytes and headers. Stamp files (dot names) are not served. */
export function loadPortalBuild(distDir: string): Map<string, BuiltFile> {
  if (!statSync(distDir, { throwIfNoEntry: false })?.isDirectory() || !statSync(join(distDir, 'index.html'), { throwIfNoEntry: false })) {
    throw new Error(`portal.enabled is true but the portal is not built (${join(distDir, 'index.html')} is missing): run npm run build:portal`);
  }
  const files = new Map<string, BuiltFile>();
  for (const path of filesUnder(distDir)) {
    const name = relative(distDir, path).split(sep).join('/');
    if (name.split('/').some((part) => part.startsWith('.'))) continue;
    const body = readFileSync(path);
    const type = mime.contentType(name.split('/').pop()!) || 'application/octet-stream';
    const gzip = compressible.test(type) && body.length > 512 ? gzipSync(body, { level: 9 }) : undefined;
    files.set(name, {
      body,
      ...(gzip && gzip.length < body.length ? { gzip } : {}),
      type,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cache: name.startsWith(assetsPrefix) ? immutableCache : revalidateCache,
    });
  }
  return files;
}

export interface PortalAppOptions {
  distDir: string;
  /** Origins the page may load images from besides itself (configured logos). */
  imageOrigins: readonly string[];
}

function acceptsGzip(request: FastifyRequest): boolean {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' && /\bgzip\b/.test(header);
}

export async function portalAppRoutes(app: App, opts: PortalAppOptions): Promise<void> {
  const files = loadPortalBuild(opts.distDir);
  const csp = portalContentSecurityPolicy(opts.imageOrigins);
  const index = files.get('index.html')!;

  const send = (request: FastifyRequest, reply: FastifyReply, file: BuiltFile) => {
    void reply
      .header('content-security-policy', csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', file.cache)
      .header('etag', file.etag)
      .header('vary', 'accept-encoding')
      .type(file.type);
    // Hashed files are public code: the sandboxed frame of a JSX asset (an opaque origin) loads its runtime from here.
    if (file.cache === immutableCache) void reply.header('access-control-allow-origin', '*');
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    if (file.gzip && acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(file.gzip);
    return reply.send(file.body);
  };

  // Pages, not API operations: the OpenAPI document leaves them out (a `/portal/{*}` template is no valid path).
  const schema = { hide: true };
  // With ignoreTrailingSlash, /portal and /portal/ are one route: the app, whose router takes either.
  app.get('/portal', { schema }, (request, reply) => send(request, reply, index));
  app.get('/portal/*', { schema }, (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const answer = portalFileFor(rest, (name) => files.has(name) && !ownPages.has(name));
    if (answer.kind === 'file') return send(request, reply, files.get(answer.name)!);
    if (answer.kind === 'missing') return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', revalidateCache).send('not found');
    return send(request, reply, index);
  });
}
