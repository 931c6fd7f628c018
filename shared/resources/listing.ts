/**
 * The listing side of managed resources: one folder of a library or every library the caller may
 * list (sorted, cursor-paged), every resource the caller may read (MCP resources/list), and the
 * folder facets of a subtree, a number of levels deep. Read-only queries; the authority check is the
 * service's, passed in.
 */
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import { readableLibraries, type ResourceAction } from './authority.js';
import { decodeCursor, encodeCursor, isLastReadSort, isListSort, sortSpecs } from './cursor.js';
import { buildFacets, levelsOf } from './facets.js';
import { MAX_FOLDER_DEPTH } from './folders.js';
import { folderPathOrThrow, libraryOrThrow } from './input.js';
import { formatLibraryPath, libraryFromKey, libraryKey, LibraryTextError, parseLibraryPath } from './library.js';
import { isResourceId, toView, type ResourceRow } from './rows.js';
import { ResourceError, type FacetsQuery, type FolderFacet, type Library, type ListPage, type ListQuery, type ResourceActor, type ResourceView } from './types.js';

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;
/** Levels of facets beneath the root of all libraries: the libraries, then up to 8 folders deep. */
export const MAX_FACET_DEPTH = MAX_FOLDER_DEPTH + 1;

export interface ResourceListing {
  list(actor: ResourceActor, query: ListQuery): Promise<ListPage<ResourceView>>;
  listReadable(actor: ResourceActor, query?: { cursor?: string; limit?: number }): Promise<ListPage<ResourceView>>;
  facets(actor: ResourceActor, query?: FacetsQuery): Promise<FolderFacet[]>;
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
    if (isLastReadSort(sort) && !actor.platformAdmin) throw new ResourceError('forbidden', 'the last_read sorts are for platform administrators (only they see when files were read)');
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new ResourceError('invalid', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
    const direct = query.direct === true;
    const target = rawPath === '' ? undefined : listedFolder(actor, rawPath, 'list');
    // Top-level roots hold folders: one level of the root of all libraries or of a library's own root
    // lists no files (a file filed at a library root is listed beneath it, and counted by facets).
    if (direct && (target === undefined || target.folderPath === '')) return { items: [], next_cursor: null };
    const listingPath = target ? formatLibraryPath(target.library, target.folderPath) : '';
    const spec = sortSpecs[sort];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where: string[] = [];
    if (target) {
      const { kind, key } = libraryKey(target.library);
      where.push(`r.library_kind = ${param(kind)} AND r.library_key = ${param(key)}`);
      const folder = param(target.folderPath);
      where.push(direct ? `r.folder_path = ${folder}` : `(${folder} = '' OR r.folder_path = ${folder} OR r.folder_path LIKE ${folder} || '/%')`);
    } else {
      // The unnarrowed listing spans every library the caller may list (all of them for a platform administrator).
      const scope = listableLibraries(actor);
      if (scope) where.push(`(r.library_kind, r.library_key) IN (SELECT * FROM unnest(${param(scope.map((l) => libraryKey(l).kind))}::text[], ${param(scope.map((l) => libraryKey(l).key))}::text[]))`);
    }
    if (query.cursor) {
      const pos = decodeCursor(query.cursor);
      if (!pos || pos.sort !== sort || pos.path !== listingPath || pos.direct !== direct) {
        throw new ResourceError('invalid', 'cursor does not belong to this listing (path, direct and sort must be the same)');
      }
      where.push(`(${spec.column}, r.id) ${spec.descending ? '<' : '>'} (${param(pos.key)}${spec.cast}, ${param(pos.id)})`);
    }
    const dir = spec.descending ? 'DESC' : 'ASC';
    const res = await db.query<ResourceRow & { sort_key: string }>(
      `SELECT r.*, ${spec.keyText} AS sort_key FROM resources r
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${spec.column} ${dir}, r.id ${dir}
       LIMIT ${param(limit + 1)}`,
      params,
    );
    const rows = res.rows.slice(0, limit);
    const last = rows[rows.length - 1];
    const next = res.rows.length > limit && last ? encodeCursor({ sort, path: listingPath, direct, key: last.sort_key, id: last.id }) : null;
    return { items: rows.map((r) => toView(r, actor)), next_cursor: next };
  }

  /** `<library>/<folder path>` parsed and checked (folder rule, authority to list the library). */
  function listedFolder(actor: ResourceActor, path: string, action: ResourceAction): { library: Library; folderPath: string } {
    let parsed;
    try {
      parsed = parseLibraryPath(path, actor.subject);
    } catch (err) {
      if (err instanceof LibraryTextError) throw new ResourceError('invalid', err.message);
      throw err;
    }
    const library = libraryOrThrow(parsed.library);
    const folderPath = folderPathOrThrow(parsed.folderPath);
    check(actor, action, library);
    return { library, folderPath };
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
    const libs = readableLibraries(actor);
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

  async function facets(actor: ResourceActor, query: FacetsQuery = {}): Promise<FolderFacet[]> {
    const rawPath = (query.path ?? '').trim().replace(/^\/+/, '').replace(/\/+$/, '');
    const depth = query.depth;
    if (depth !== undefined && (!Number.isInteger(depth) || depth < 1 || depth > MAX_FACET_DEPTH)) {
      throw new ResourceError('invalid', `depth must be an integer from 1 to ${MAX_FACET_DEPTH}`);
    }
    const target = rawPath === '' ? undefined : listedFolder(actor, rawPath, 'list');
    // Every library the actor may list appears, even without any file (its top-level folder).
    const scope = target ? [target.library] : listableLibraries(actor);
    const params: unknown[] = [];
    const where: string[] = [];
    if (scope) {
      where.push(`(library_kind, library_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`);
      params.push(scope.map((l) => libraryKey(l).kind), scope.map((l) => libraryKey(l).key));
    }
    if (target && target.folderPath !== '') {
      // Folder names are [a-z0-9-]: nothing in the prefix is a LIKE wildcard.
      where.push(`(path = $3 OR path LIKE $3 || '/%')`);
      params.push(target.folderPath);
    }
    const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    // With a depth, folders beneath the deepest level shown are merged in SQL into one row per
    // ancestor at that level, under a name no folder can have (`<ancestor>/*`): they still count
    // toward the folders shown, and the answer reads a row per folder shown, not per folder.
    const shownLevels = depth === undefined ? undefined : target ? levelsOf(target.folderPath) + depth : depth - 1;
    if (shownLevels !== undefined) params.push(shownLevels);
    const n = `$${params.length}::int`;
    const shownPath =
      shownLevels === undefined
        ? 'path'
        : `CASE WHEN cardinality(string_to_array(path, '/')) > ${n}
                THEN CASE WHEN ${n} = 0 THEN '*' ELSE array_to_string((string_to_array(path, '/'))[1:${n}], '/') || '/*' END
                ELSE path END`;
    const [counts, folders] = await Promise.all([
      db.query<{ library_kind: string; library_key: string; path: string; n: string; last: Date | null }>(
        `SELECT library_kind, library_key, p AS path, sum(file_count) AS n, max(last_changed_at) AS last
           FROM (SELECT library_kind, library_key, ${shownPath} AS p, file_count, last_changed_at FROM resource_folder_stats ${filter}) s
          GROUP BY library_kind, library_key, p`,
        params,
      ),
      db.query<{ library_kind: string; library_key: string; path: string; description: string }>(
        `SELECT DISTINCT library_kind, library_key, p AS path, CASE WHEN p LIKE '%*' THEN '' ELSE description END AS description
           FROM (SELECT library_kind, library_key, ${shownPath} AS p, description FROM resource_folders ${filter}) f`,
        params,
      ),
    ]);
    const libraries = scope ?? [
      { kind: 'person', subject: actor.subject } as Library,
      ...Object.keys(config.personas.definitions).map((name): Library => ({ kind: 'persona', name })),
      { kind: 'global' } as Library,
    ];
    const answer = buildFacets(
      target && target.folderPath !== '' ? [] : libraries,
      folders.rows.map((f) => ({ library: libraryFromKey(f.library_kind, f.library_key), path: f.path, description: f.description })),
      counts.rows.map((c) => ({ library: libraryFromKey(c.library_kind, c.library_key), folderPath: c.path, count: Number(c.n), lastChanged: c.last })),
      { ...(target ? { library: target.library } : {}), folderPath: target?.folderPath ?? '', ...(depth !== undefined ? { depth } : {}) },
    );
    if (target && answer.length === 0) throw new ResourceError('not_found', `folder ${formatLibraryPath(target.library, target.folderPath)} not found`);
    return answer;
  }

  return { list, listReadable, facets };
}
