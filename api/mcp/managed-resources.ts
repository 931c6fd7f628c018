import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { ProtocolError, protocolErrorCodes } from '../../shared/mcp-tools/index.js';
import { isTextContent, readAll } from '../../shared/objstore/index.js';
import {
  formatLibraryPath,
  ResourceError,
  type Library,
  type ResourceActor,
  type ResourceService,
  type ResourceView,
} from '../../shared/resources/index.js';

/**
 * Managed resources (spec document 2) over the MCP resources methods: `resources/list`,
 * `resources/templates/list` and `resources/read`. Everything here is membership-scoped — the
 * caller's own library, the personas the caller belongs to, and global — for administrators too
 * (spec: "MCP resources/read: membership-scoped"); administrators reach other libraries through
 * the portal. A resource outside that scope answers exactly like an unknown one.
 */
export interface McpResources {
  service: ResourceService;
  /** The acting identity for a caller (and its MCP session, for writer records). */
  actorOf(caller: CallerContext, sessionId?: string): ResourceActor;
  /** Managed resources per resources/list page (default `listPageSize`). */
  pageSize?: number;
  /** Bytes one resources/read inlines (default `maxInlineReadBytes`). */
  maxReadBytes?: number;
}

/**
 * Bytes inlined by one resources/read (text or base64 blob). Above it the read is refused with a
 * message naming the limit: a JSON-RPC answer holding more would strain every client's context.
 */
export const maxInlineReadBytes = 10 * 1024 * 1024;

/** Managed resources listed per resources/list page. */
export const listPageSize = 100;

export function isManagedResourceUri(uri: string): boolean {
  return uri.startsWith('mcp:resource:') || uri.startsWith('mcp://');
}

export const managedResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: 'mcp:resource:{id}',
    name: 'managed-resource',
    title: 'Managed resource by reference',
    description: 'A managed resource by its stable reference; the id never changes on replace, move or rename.',
  },
  {
    uriTemplate: 'mcp://user/{subject}/{+path}',
    name: 'personal-resource',
    title: 'Personal resource',
    description: 'A file in a person\'s own library: <folder path>/<file name>, each segment percent-encoded; the subject is namespaced by how its owner signs in (apikey:etl is apikey%3Aetl).',
  },
  {
    uriTemplate: 'mcp://persona/{name}/{+path}',
    name: 'persona-resource',
    title: 'Persona resource',
    description: 'A file in a persona\'s library, readable by its members: <folder path>/<file name>.',
  },
  {
    uriTemplate: 'mcp://global/{+path}',
    name: 'global-resource',
    title: 'Global resource',
    description: 'A file in the global library, readable by every caller: <folder path>/<file name>.',
  },
];

/** The libraries a caller reads through MCP, in listing order: own, personas (by name), global. */
export function membershipLibraries(actor: ResourceActor): Library[] {
  const personas = [...new Set(actor.personas)].sort();
  return [{ kind: 'person', subject: actor.subject }, ...personas.map((name): Library => ({ kind: 'persona', name })), { kind: 'global' }];
}

/** Whether a resource lies in a library the actor is a member of (view library text). */
export function readableByMembership(actor: ResourceActor, library: string): boolean {
  if (library === 'global') return true;
  if (library === `person:${actor.subject}`) return true;
  return library.startsWith('persona:') && actor.personas.includes(library.slice('persona:'.length));
}

export function toMcpResource(view: ResourceView): Resource {
  return {
    uri: view.uri,
    name: view.display_name,
    description: view.description,
    mimeType: view.content_type,
    size: view.size,
    annotations: { lastModified: view.updated_at },
  };
}

/** Opaque resources/list cursor: which library the page continues in, and the service's cursor there. */
interface ListCursor {
  library: string;
  cursor: string | null;
}

function encodeCursor(c: ListCursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

function decodeCursor(text: string): ListCursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<ListCursor>;
    if (typeof value.library === 'string' && (value.cursor === null || typeof value.cursor === 'string')) {
      return { library: value.library, cursor: value.cursor };
    }
  } catch {
    // fall through to the refusal
  }
  throw new ProtocolError(protocolErrorCodes.invalidParams, 'invalid cursor: pass the nextCursor of a previous resources/list answer');
}

/**
 * One page of the caller's managed resources. Libraries are listed one after another (everything
 * beneath each, by name); the cursor names the library and the service's own cursor inside it.
 */
export async function listManagedResources(
  resources: McpResources,
  actor: ResourceActor,
  cursorText: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const libraries = membershipLibraries(actor).map((l) => formatLibraryPath(l, ''));
  let index = 0;
  let cursor: string | null = null;
  if (cursorText !== undefined) {
    const decoded = decodeCursor(cursorText);
    index = libraries.indexOf(decoded.library);
    // Membership changed since the previous page: the cursor no longer names a library of the caller.
    if (index < 0) throw new ProtocolError(protocolErrorCodes.invalidParams, 'invalid cursor: the library it continues is no longer readable; list again from the start');
    cursor = decoded.cursor;
  }
  // Skip empty libraries so a page is only empty when nothing is left.
  while (index < libraries.length) {
    const library = libraries[index]!;
    const page = await resources.service.list(actor, {
      path: library,
      direct: false,
      sort: 'name',
      limit: resources.pageSize ?? listPageSize,
      ...(cursor ? { cursor } : {}),
    });
    const items = page.items.filter((r) => readableByMembership(actor, r.library)).map(toMcpResource);
    const next: ListCursor | undefined = page.next_cursor
      ? { library, cursor: page.next_cursor }
      : index + 1 < libraries.length
        ? { library: libraries[index + 1]!, cursor: null }
        : undefined;
    if (items.length > 0 || !next) return { resources: items, ...(next ? { nextCursor: encodeCursor(next) } : {}) };
    // Either further pages of this library or the next library: each step moves forward.
    if (next.library !== library) index++;
    cursor = next.cursor;
  }
  return { resources: [] };
}

function notFound(uri: string): ProtocolError {
  return new ProtocolError(protocolErrorCodes.resourceNotFound, `resource not found: ${uri}`, { uri });
}

function tooLarge(uri: string, size: number, limit: number): ProtocolError {
  return new ProtocolError(
    protocolErrorCodes.invalidRequest,
    `resource ${uri} is ${size} bytes; resources/read inlines at most ${limit} bytes (${Math.round(limit / 1024 / 1024)} MB). ` +
      'Download it from the portal, or read its details with the manage_resource tool (action "read").',
    { uri, size, limit },
  );
}

/**
 * resources/read of a managed resource by canonical URI, alias or `mcp:resource:<id>`. Stamps last
 * read (door `resources_read`); text as `text`, anything else as a base64 `blob`.
 */
export async function readManagedResource(
  resources: McpResources,
  actor: ResourceActor,
  uri: string,
): Promise<ReadResourceResult> {
  const limit = resources.maxReadBytes ?? maxInlineReadBytes;
  let view: ResourceView;
  try {
    view = await resources.service.resolve(actor, uri);
  } catch (error) {
    // Unknown, not allowed and malformed all answer alike: the caller learns nothing of others' files.
    if (error instanceof ResourceError && (error.code === 'not_found' || error.code === 'forbidden' || error.code === 'invalid')) throw notFound(uri);
    throw error;
  }
  // The service lets administrators dereference any file; resources/read stays membership-scoped.
  if (!readableByMembership(actor, view.library)) throw notFound(uri);
  // Refuse before opening, so a refused read neither streams nor stamps last read.
  if (view.size > limit) throw tooLarge(uri, view.size, limit);
  let opened: Awaited<ReturnType<ResourceService['openContent']>>;
  try {
    opened = await resources.service.openContent(actor, view.id, 'resources_read');
  } catch (error) {
    // Deleted (or moved out of reach) between resolve and open.
    if (error instanceof ResourceError && (error.code === 'not_found' || error.code === 'forbidden')) throw notFound(uri);
    throw error;
  }
  const { resource, body } = opened;
  const { bytes, cut } = await readAll(body, limit);
  // Replaced by something larger between resolve and open.
  if (cut) throw tooLarge(uri, Math.max(resource.size, limit + 1), limit);
  const meta = { reference: resource.reference, version: resource.version };
  const content = isTextContent(resource.content_type, bytes)
    ? { uri: resource.uri, mimeType: resource.content_type, text: bytes.toString('utf8'), _meta: meta }
    : { uri: resource.uri, mimeType: resource.content_type, blob: bytes.toString('base64'), _meta: meta };
  return { contents: [content] };
}
