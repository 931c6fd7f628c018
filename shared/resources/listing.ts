/**
 * The listing side of managed resources: one folder of a library (sorted, cursor-paged), every
 * resource the caller may read (MCP resources/list), and the folder facets. Read-only queries; the
 * authority check is the service's, passed in.
 */
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import type { ResourceAction } from './authority.js';
import { decodeCursor, encodeCursor, isListSort, sortSpecs } from './cursor.js';
import { buildFacets } from './facets.js';
import { folderPathOrThrow, libraryOrThrow } from './input.js';
import { formatLibraryPath, libraryFromKey, libraryKey, LibraryTextError, parseLibraryPath } from './library.js';
import { isResourceId, toView, type ResourceRow } from './rows.js';
import { ResourceError, type FolderFacet, type Library, type ListPage, type ListQuery, type ResourceActor, type ResourceView } from './types.js';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export interface ResourceListing {
  list(actor: ResourceActor, query: ListQuery): Promise<ListPage<ResourceView>>;
  listReadable(actor: ResourceActor, query?: { cursor?: string; limit?: number }): Promise<ListPage<ResourceView>>;
  facets(actor: ResourceActor): Promise<FolderFacet[]>;
}

export function createResourceListing(deps: {
  config: Pick<PlatformConfig, 'personas'>;
  db: Db;
  /** Throws `forbidden` when the actor may not take the action on the library. */
  check(actor: ResourceActor, action: ResourceAction, library: Library): void;
}): ResourceListing {
  const { config, db, check } = deps;

  async function list(actor: ResourceActor, query: ListQuery): Promise<ListPage<ResourceView>> {
    const rawPath = (query.path ?? '').trim().replace(/^\/+/, '').replace(/\/+$/, '');
    const sort = query.sort ?? 'name';
    if (!isListSort(sort)) throw new ResourceError('invalid', `sort must be one of ${Object.keys(sortSpecs).join(', ')}`);
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new ResourceError('invalid', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
    // The root of all libraries holds libraries (folders), never files.
    if (rawPath === '') return { items: [], next_cursor: null };
    let parsed;
    try {
      parsed = parseLibraryPath(rawPath, actor.subject);
    } catch (err) {
      if (err instanceof LibraryTextError) throw new ResourceError('invalid', err.message);
      throw err;
    }
    const library = libraryOrThrow(parsed.library);
    const folderPath = folderPathOrThrow(parsed.folderPath);
    check(actor, 'list', library);
    const direct = query.direct === true;
    const listingPath = formatLibraryPath(library, folderPath);
    const spec = sortSpecs[sort];
    const { kind, key } = libraryKey(library);
    const params: unknown[] = [kind, key, folderPath];
    let where = direct ? 'r.folder_path = $3' : `($3 = '' OR r.folder_path = $3 OR r.folder_path LIKE $3 || '/%')`;
    if (query.cursor) {
      const pos = decodeCursor(query.cursor);
      if (!pos || pos.sort !== sort || pos.path !== listingPath || pos.direct !== direct) {
        throw new ResourceError('invalid', 'cursor does not belong to this listing (path, direct and sort must be the same)');
      }
      params.push(pos.key, pos.id);
      where += ` AND (${spec.column}, r.id) ${spec.descending ? '<' : '>'} ($4${spec.cast}, $5)`;
    }
    params.push(limit + 1);
    const dir = spec.descending ? 'DESC' : 'ASC';
    const res = await db.query<ResourceRow & { sort_key: string }>(
      `SELECT r.*, ${spec.keyText} AS sort_key FROM resources r
       WHERE r.library_kind = $1 AND r.library_key = $2 AND ${where}
       ORDER BY ${spec.column} ${dir}, r.id ${dir}
       LIMIT $${params.length}`,
      params,
    );
    const rows = res.rows.slice(0, limit);
    const last = rows[rows.length - 1];
    const next = res.rows.length > limit && last ? encodeCursor({ sort, path: listingPath, direct, key: last.sort_key, id: last.id }) : null;
    return { items: rows.map((r) => toView(r, actor)), next_cursor: next };
  }

  /** Libraries the actor may list: null = every library (platform administrators). */
  function listableLibraries(actor: ResourceActor): Library[] | null {
    if (actor.platformAdmin) return null;
    const libs: Library[] = [{ kind: 'person', subject: actor.subject }];
    for (const name of new Set([...actor.personas, ...actor.adminOfPersonas])) libs.push({ kind: 'persona', name });
    libs.push({ kind: 'global' });
    return libs;
  }

  async function listReadable(actor: ResourceActor, query: { cursor?: string; limit?: number } = {}): Promise<ListPage<ResourceView>> {
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new ResourceError('invalid', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
    let after = '';
    if (query.cursor) {
      const decoded = Buffer.from(query.cursor, 'base64url').toString('utf8');
      if (!decoded.startsWith('readable:') || !isResourceId(decoded.slice('readable:'.length))) throw new ResourceError('invalid', 'cursor does not belong to this listing');
      after = decoded.slice('readable:'.length);
    }
    // Membership-scoped for everyone (spec: MCP resources/read is membership-scoped).
    const libs: Library[] = [{ kind: 'person', subject: actor.subject }, ...actor.personas.map((name): Library => ({ kind: 'persona', name })), { kind: 'global' }];
    const res = await db.query<ResourceRow>(
      `SELECT r.* FROM resources r
       WHERE (r.library_kind, r.library_key) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND r.id > $3
       ORDER BY r.id LIMIT $4`,
      [libs.map((l) => libraryKey(l).kind), libs.map((l) => libraryKey(l).key), after, limit + 1],
    );
    const rows = res.rows.slice(0, limit);
    const last = rows[rows.length - 1];
    const next = res.rows.length > limit && last ? Buffer.from(`readable:${last.id}`, 'utf8').toString('base64url') : null;
    return { items: rows.map((r) => toView(r, actor)), next_cursor: next };
  }

  async function facets(actor: ResourceActor): Promise<FolderFacet[]> {
    const scope = listableLibraries(actor);
    const kinds = scope?.map((l) => libraryKey(l).kind) ?? [];
    const keys = scope?.map((l) => libraryKey(l).key) ?? [];
    const filter = scope ? `WHERE (library_kind, library_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))` : '';
    const params = scope ? [kinds, keys] : [];
    const [counts, folders] = await Promise.all([
      db.query<{ library_kind: string; library_key: string; folder_path: string; n: number; last: Date }>(
        `SELECT library_kind, library_key, folder_path, count(*)::int AS n, max(updated_at) AS last FROM resources ${filter} GROUP BY 1, 2, 3`,
        params,
      ),
      db.query<{ library_kind: string; library_key: string; path: string; description: string }>(
        `SELECT library_kind, library_key, path, description FROM resource_folders ${filter}`,
        params,
      ),
    ]);

    // Every library the actor may list appears, even without any file (its top-level folder).
    const libraries = scope ?? [
      { kind: 'person', subject: actor.subject } as Library,
      ...Object.keys(config.personas.definitions).map((name): Library => ({ kind: 'persona', name })),
      { kind: 'global' } as Library,
    ];
    return buildFacets(
      libraries,
      folders.rows.map((f) => ({ library: libraryFromKey(f.library_kind, f.library_key), path: f.path, description: f.description })),
      counts.rows.map((c) => ({ library: libraryFromKey(c.library_kind, c.library_key), folderPath: c.folder_path, count: c.n, lastChanged: c.last })),
    );
  }

  return { list, listReadable, facets };
}
