/**
 * Export into a resource (spec document 2, "Agent tools", export paragraph): an upstream's
 * answer streams into the file at `library/path/file_name`. The path is the identity: the first
 * export creates the file, each later one records its next version. An upstream that answered
 * an error is refused before a byte is stored, and one that fails mid-body stores nothing (the
 * upload is discarded), so the file keeps its last version either way. The export tools and
 * scripts' `platform.export` share this.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { normalizeFolderPath } from './folders.js';
import { parseLibrary } from './library.js';
import { ResourceError, type CreateResult, type Library, type ResourceActor, type ResourceService, type WriteOrigin } from './types.js';

/** Where an export lands and what the version says. */
export interface ExportTarget {
  library: Library;
  /** Folder path inside the library ('' for the root). */
  path: string;
  file_name: string;
  content_type?: string;
  description?: string;
  tags?: string[];
  change_summary?: string;
}

/**
 * The `resource` argument of the export tools (sql_export, api_export, graphql_export): where the
 * file is (the path is its identity) and what its versions say.
 */
export const exportResourceInput = z.strictObject({
  library: z.string().optional().describe('personal (default), person:<subject>, persona:<name> or global'),
  path: z.string().default('').describe('folder path inside the library'),
  filename: z.string().min(1).describe('file name; the same library, path and filename revise the same file'),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  change_summary: z.string().optional().describe('shown under the version (default: what it was exported from)'),
});

export type ExportResourceInput = z.output<typeof exportResourceInput>;

/** The target an export tool's `resource` argument names, for `actor` (personal = the actor's own library). */
export function exportTargetOf(args: ExportResourceInput, actor: ResourceActor): ExportTarget {
  return {
    library: parseLibrary(args.library ?? 'personal', actor.subject),
    path: normalizeFolderPath(args.path),
    file_name: args.filename,
    ...(args.description !== undefined ? { description: args.description } : {}),
    ...(args.tags !== undefined ? { tags: args.tags } : {}),
    ...(args.change_summary !== undefined ? { change_summary: args.change_summary } : {}),
  };
}

/** An upstream's answer, its body not yet read. */
export interface UpstreamAnswer {
  status: number;
  statusText?: string;
  /** The upstream's Content-Type, used when the target names none. */
  contentType?: string;
  /** A web stream (an HTTP answer) or a Node stream (rows a query encodes as they arrive). */
  body: ReadableStream<Uint8Array> | Readable | null;
  /** What the upstream is, for messages (a host, a connection). */
  name: string;
}

/** Whether an upstream status is an answer worth storing: 2xx only (a 204 stores an empty file). */
export function upstreamAccepted(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The Content-Type's media type with its parameters, or undefined when it is missing or generic. */
function declaredType(contentType: string | undefined): string | undefined {
  const value = contentType?.trim();
  return value && value.toLowerCase() !== 'application/octet-stream' ? value : undefined;
}

export async function exportIntoResource(
  service: ResourceService,
  actor: ResourceActor,
  target: ExportTarget,
  upstream: UpstreamAnswer,
  origin: WriteOrigin,
): Promise<CreateResult> {
  const where = `${target.path ? `${target.path}/` : ''}${target.file_name}`;
  if (!upstreamAccepted(upstream.status)) {
    if (upstream.body instanceof Readable) upstream.body.destroy();
    else await upstream.body?.cancel().catch(() => undefined);
    throw new ResourceError(
      'upstream',
      `${upstream.name} answered ${upstream.status}${upstream.statusText ? ` ${upstream.statusText}` : ''}: nothing was exported, and ${where} keeps its last version`,
      { upstream_status: upstream.status },
    );
  }
  const contentType = target.content_type ?? declaredType(upstream.contentType);
  const body =
    upstream.body instanceof Readable ? upstream.body : upstream.body ? Readable.fromWeb(upstream.body as WebReadableStream<Uint8Array>) : Readable.from([]);
  // fromWeb reads ahead at once: an upstream that breaks off before the store starts reading
  // errors this stream with nobody listening yet (an uncaught exception). The store still sees
  // the error (the stream is destroyed with it) and keeps nothing; the error is kept to say why,
  // as the store reports only its own failure to write.
  let bodyError: unknown;
  body.on('error', (error) => (bodyError ??= error));
  try {
    return await service.create(actor, {
      library: target.library,
      path: target.path,
      file_name: target.file_name,
      ...(target.description !== undefined ? { description: target.description } : {}),
      ...(target.tags !== undefined ? { tags: target.tags } : {}),
      ...(contentType !== undefined ? { content_type: contentType } : {}),
      if_exists: 'replace',
      change_summary: target.change_summary ?? `export from ${upstream.name}`,
      origin,
      body,
    });
  } catch (error) {
    // Nothing more is read: an upstream still sending (a query's next pages) is stopped, not drained.
    body.destroy();
    // A refusal of the answer itself (too large, a GraphQL errors answer) is the answer.
    if (bodyError instanceof ResourceError) throw bodyError;
    if (error instanceof ResourceError) throw error;
    // The upstream broke off (or timed out) mid-body: the store kept nothing.
    const cause = bodyError ?? error;
    throw new ResourceError('upstream', `${upstream.name} failed while sending: ${cause instanceof Error ? cause.message : String(cause)}; ${where} keeps its last version`);
  }
}
