/**
 * The file manager's top-level folders (spec document 2, "Libraries and top-level folders"), in
 * the order the portal shows them: My Resources (the caller's own library), one folder per persona
 * the caller belongs to or administers (every persona for a platform administrator, with or without
 * files), Global, and for a platform administrator People — one folder per person whose resources
 * exist, read when opened (`people`, paged by subject). Each carries exact counts and when
 * anything beneath last changed (the per-folder rows of `resource_folder_stats`, as facets read
 * them) and the caller's folder actions. The portal never calls these scopes.
 */
import { anonymousSubject } from '../identity/index.js';
import { folderActions } from './authority.js';
import type { ResourceContext } from './context.js';
import { formatLibrary, formatLibraryPath, libraryKey } from './library.js';
import { DEFAULT_PEOPLE_LIMIT, MAX_PEOPLE_LIMIT } from './move-targets.js';
import { ResourceError, type Library, type LibraryFolderFields, type PeopleQuery, type PersonFolderView, type ResourceActor, type ResourceService, type TopLevelFolderView, type ListPage } from './types.js';

/** Names the portal shows for the libraries that are not personas. */
export const MY_RESOURCES = 'My Resources';
export const GLOBAL = 'Global';
export const PEOPLE = 'People';

interface LibraryStats {
  count: number;
  direct: number;
  last: Date | null;
}

const noStats: LibraryStats = { count: 0, direct: 0, last: null };
const cursorPrefix = 'people:';

export function createTopLevelFolders(context: ResourceContext): Pick<ResourceService, 'topLevelFolders' | 'people'> {
  const { config, db } = context;
  const definitions = config.personas.definitions;

  /** Files beneath each library (at every depth), those at its top level, and the last change beneath. */
  async function statsOf(libraries: readonly Library[]): Promise<Map<string, LibraryStats>> {
    const res = await db.query<{ library_kind: string; library_key: string; n: string; d: string; last: Date | null }>(
      `SELECT library_kind, library_key, sum(file_count) AS n, coalesce(sum(file_count) FILTER (WHERE path = ''), 0) AS d, max(last_changed_at) AS last
         FROM resource_folder_stats
        WHERE (library_kind, library_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        GROUP BY library_kind, library_key`,
      [libraries.map((l) => libraryKey(l).kind), libraries.map((l) => libraryKey(l).key)],
    );
    return new Map(res.rows.map((r) => [`${r.library_kind}\u0000${r.library_key}`, { count: Number(r.n), direct: Number(r.d), last: r.last }]));
  }

  /** Persona libraries holding a file or a folder (a persona removed from the configuration may still hold some). */
  async function occupiedPersonas(): Promise<string[]> {
    const res = await db.query<{ name: string }>(
      `SELECT library_key AS name FROM resource_folder_stats WHERE library_kind = 'persona' AND file_count > 0
       UNION SELECT library_key FROM resource_folders WHERE library_kind = 'persona'`,
    );
    return res.rows.map((r) => r.name);
  }

  /** The personas whose folders the caller sees at the top level. */
  async function personasOf(actor: ResourceActor): Promise<string[]> {
    const configured = Object.keys(definitions);
    if (actor.platformAdmin) return [...new Set([...configured, ...(await occupiedPersonas())])];
    const administered = actor.adminOfPersonas.filter((name) => Object.hasOwn(definitions, name));
    const unconfigured = actor.adminOfPersonas.filter((name) => !Object.hasOwn(definitions, name));
    const occupied = unconfigured.length > 0 ? new Set(await occupiedPersonas()) : new Set<string>();
    return [...new Set([...actor.personas, ...administered, ...unconfigured.filter((name) => occupied.has(name))])];
  }

  function personaName(name: string): string {
    const display = definitions[name]?.display_name?.trim();
    return display ? display : name;
  }

  function folderFields(actor: ResourceActor, library: Library, name: string, stats: LibraryStats, description = ''): LibraryFolderFields {
    return {
      name,
      library: formatLibrary(library),
      path: formatLibraryPath(library, ''),
      description,
      count: stats.count,
      direct_count: stats.direct,
      last_changed_at: stats.last ? stats.last.toISOString() : null,
      allowed_actions: folderActions(actor, library, ''),
    };
  }

  /** The subjects other than these whose personal library holds a file or a folder. */
  const peopleSql = (filters: string) => `
    SELECT library_key AS subject FROM resource_folder_stats WHERE library_kind = 'person' AND file_count > 0 AND library_key <> ALL($1::text[]) ${filters}
    UNION SELECT library_key FROM resource_folders WHERE library_kind = 'person' AND library_key <> ALL($1::text[]) ${filters}`;

  async function topLevelFolders(actor: ResourceActor): Promise<TopLevelFolderView[]> {
    const own: Library | undefined = actor.authType === 'anonymous' ? undefined : { kind: 'person', subject: actor.subject };
    const personas = (await personasOf(actor))
      .map((name) => ({ name, shown: personaName(name) }))
      .sort((a, b) => a.shown.localeCompare(b.shown, 'en', { sensitivity: 'base' }) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const libraries: Library[] = [...(own ? [own] : []), ...personas.map((p): Library => ({ kind: 'persona', name: p.name })), { kind: 'global' }];
    const stats = await statsOf(libraries);
    const of = (library: Library) => {
      const { kind, key } = libraryKey(library);
      return stats.get(`${kind}\u0000${key}`) ?? noStats;
    };
    const folders: TopLevelFolderView[] = [
      ...(own ? [{ kind: 'personal' as const, ...folderFields(actor, own, MY_RESOURCES, of(own)) }] : []),
      ...personas.map((p) => {
        const library: Library = { kind: 'persona', name: p.name };
        return { kind: 'persona' as const, persona: p.name, ...folderFields(actor, library, p.shown, of(library), definitions[p.name]?.description ?? '') };
      }),
      { kind: 'global' as const, ...folderFields(actor, { kind: 'global' }, GLOBAL, of({ kind: 'global' })) },
    ];
    if (actor.platformAdmin) {
      const res = await db.query<{ people: string; files: string | null; last: Date | null }>(
        `WITH people AS (${peopleSql('')}),
              stats AS (SELECT library_key AS subject, sum(file_count) AS n, max(last_changed_at) AS last
                          FROM resource_folder_stats WHERE library_kind = 'person' AND library_key IN (SELECT subject FROM people) GROUP BY library_key)
         SELECT (SELECT count(*) FROM people) AS people, (SELECT sum(n) FROM stats) AS files, (SELECT max(last) FROM stats) AS last`,
        [[actor.subject, anonymousSubject]],
      );
      const row = res.rows[0];
      folders.push({
        kind: 'people',
        name: PEOPLE,
        people: Number(row?.people ?? 0),
        count: Number(row?.files ?? 0),
        last_changed_at: row?.last ? row.last.toISOString() : null,
      });
    }
    return folders;
  }

  async function people(actor: ResourceActor, query: PeopleQuery = {}): Promise<ListPage<PersonFolderView>> {
    if (!actor.platformAdmin) throw new ResourceError('forbidden', 'People lists every person\'s library: only platform administrators may open it');
    const limit = query.limit ?? DEFAULT_PEOPLE_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PEOPLE_LIMIT) throw new ResourceError('invalid', `limit must be an integer from 1 to ${MAX_PEOPLE_LIMIT}`);
    let after = '';
    if (query.cursor) {
      const decoded = Buffer.from(query.cursor, 'base64url').toString('utf8');
      if (!decoded.startsWith(cursorPrefix)) throw new ResourceError('invalid', 'cursor does not belong to this listing');
      after = decoded.slice(cursorPrefix.length);
    }
    const contains = query.q?.trim() ?? '';
    const page = await db.query<{ subject: string }>(
      `SELECT subject FROM (${peopleSql(`AND library_key > $2 AND ($3 = '' OR strpos(lower(library_key), lower($3)) > 0)`)}) p ORDER BY subject LIMIT $4`,
      [[actor.subject, anonymousSubject], after, contains, limit + 1],
    );
    const subjects = page.rows.slice(0, limit).map((r) => r.subject);
    const libraries = subjects.map((subject): Library => ({ kind: 'person', subject }));
    const [stats, names] = await Promise.all([statsOf(libraries), displayNames(subjects)]);
    const items = libraries.map((library, i): PersonFolderView => {
      const subject = subjects[i]!;
      return { kind: 'person', subject, ...folderFields(actor, library, names.get(subject) ?? subject, stats.get(`person\u0000${subject}`) ?? noStats) };
    });
    const last = subjects.at(-1);
    return { items, next_cursor: page.rows.length > limit && last !== undefined ? Buffer.from(`${cursorPrefix}${last}`, 'utf8').toString('base64url') : null };
  }

  /**
   * What to call each person: the display (email) their own writes into their library recorded,
   * most recent first; the subject when there is none.
   */
  async function displayNames(subjects: readonly string[]): Promise<Map<string, string>> {
    if (subjects.length === 0) return new Map();
    const res = await db.query<{ subject: string; display: string | null }>(
      `SELECT s.subject, d.display FROM unnest($1::text[]) AS s(subject)
         LEFT JOIN LATERAL (
           SELECT w.display FROM resources r JOIN resource_writers w ON w.resource_id = r.id AND w.writer_kind = 'person' AND w.writer_id = s.subject
            WHERE r.library_kind = 'person' AND r.library_key = s.subject AND w.display <> ''
            ORDER BY w.last_written_at DESC LIMIT 1) d ON true`,
      [subjects],
    );
    return new Map(res.rows.filter((r) => r.display).map((r) => [r.subject, r.display!]));
  }

  return { topLevelFolders, people };
}
