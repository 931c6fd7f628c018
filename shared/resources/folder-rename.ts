/**
 * Folder rename and nest (spec document 2, "Move, rename, folder change", the folder rows): the
 * folder path of every resource and stored folder beneath is rewritten, at every depth, in one
 * transaction under the library's exclusive lock (uploads into the library take it shared, so a
 * rename racing an upload either moves the new file too or lets it land in the old folder after
 * the rename: never half-moved). Authority is that of moving each file within its library: the
 * caller may change every file beneath (a folder with no files: may add to the library, as folder
 * create and delete need). Each moved resource records the address it left as an alias, one
 * `moved` event and one `resource_move` audit entry (as a single move does), and asks for its
 * index job through the outbox in the same transaction. Refused with nothing moved when the target
 * is inside the source, more than MAX_RENAME_RESOURCES resources are beneath (the true count
 * stated), any of them is one the caller cannot change, or a destination address is taken.
 * The rows beneath are locked without waiting (a file being written makes the rename give way
 * with FolderBusyError, which its activity's retry takes care of). The renameFolder workflow
 * (workflows/folders.ts) runs this through its activity.
 */
import { MOVE_AUDIT_TOOL, recordResourceEvent } from './audit-trail.js';
import { plural, type Client, type ResourceContext } from './context.js';
import { folderPathProblem, isWithin } from './folders.js';
import { folderPathOrThrow, libraryOrThrow } from './input.js';
import { formatLibrary, formatLibraryPath, libraryKey } from './library.js';
import { may } from './authority.js';
import { rowUri, type ResourceRow } from './rows.js';
import { ResourceError, type Library, type LibraryText, type ResourceActor } from './types.js';

/** Most resources one rename moves (spec: "of up to 500 files"). */
export const MAX_RENAME_RESOURCES = 500;

export interface FolderRenameInput {
  library: Library;
  /** The folder to rename or move ('' is refused: the library root is not a folder). */
  path: string;
  /** Its new path in the same library: a new name, a new parent, or both. */
  new_path: string;
  /**
   * The result of this same request run before (the renameFolder workflow passes it): answered
   * again when the folder is gone and every file it moved is still where it put it, so a repeated
   * request returns the same result instead of not_found.
   */
  repeat_of?: FolderRenameResult;
}

export interface MovedResource {
  id: string;
  reference: string;
  /** The address it left (now an alias that still resolves). */
  from_uri: string;
  uri: string;
}

export interface FolderRenameResult {
  library: LibraryText;
  path: string;
  new_path: string;
  /** Every resource moved, by id. */
  moved: MovedResource[];
  /** Stored folders rewritten (the folder itself and every folder beneath). */
  folders: number;
}

/** `old` → its place under `to`, for a path within `from`. */
export function renamedPath(path: string, from: string, to: string): string {
  return path === from ? to : `${to}${path.slice(from.length)}`;
}

/** Why the rename is refused before looking at the library (pure), or undefined. */
export function renameTargetProblem(path: string, newPath: string): string | undefined {
  if (path === newPath) return `folder ${path} is already called that`;
  if (isWithin(newPath, path)) return `cannot move folder ${path} inside itself (${newPath})`;
  return undefined;
}

export function createFolderRename(context: ResourceContext) {
  const { config, clock, changeTransaction, check, checkLibraryExists, lockLibrary, recordFolders, recordWriter, recordEvent } = context;

  async function renameFolder(actor: ResourceActor, input: FolderRenameInput): Promise<FolderRenameResult> {
    const library = libraryOrThrow(input.library);
    const from = folderPathOrThrow(input.path);
    const to = folderPathOrThrow(input.new_path);
    if (from === '' || to === '') throw new ResourceError('invalid', 'the library root is not a folder; name a folder path and a new folder path');
    const problem = renameTargetProblem(from, to);
    if (problem) throw new ResourceError('invalid', problem);
    checkLibraryExists(library);
    const { kind, key } = libraryKey(library);

    return changeTransaction(async (client, changed) => {
      // Exclusive: no file is filed into the library (nor another folder renamed) until this commits.
      await lockLibrary(client, library, 'exclusive');
      const now = clock();
      const count = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM resources WHERE library_kind = $1 AND library_key = $2 AND (folder_path = $3 OR folder_path LIKE $3 || '/%')`,
        [kind, key, from],
      );
      const n = count.rows[0]?.n ?? 0;
      if (n > MAX_RENAME_RESOURCES) {
        throw new ResourceError(
          'conflict',
          `folder ${formatLibraryPath(library, from)} holds ${plural(n, 'file', 'files')} beneath; a rename moves at most ${MAX_RENAME_RESOURCES}. Move some files first.`,
          { count: n, limit: MAX_RENAME_RESOURCES },
        );
      }
      const folders = await client.query<{ path: string; description: string; created_at: Date }>(
        `SELECT path, description, created_at FROM resource_folders WHERE library_kind = $1 AND library_key = $2 AND (path = $3 OR path LIKE $3 || '/%')`,
        [kind, key, from],
      );
      if (n === 0 && folders.rowCount === 0) {
        if (input.repeat_of && (await stillWhereMoved(client, input.repeat_of))) return input.repeat_of;
        throw new ResourceError('not_found', `folder ${formatLibraryPath(library, from)} not found`);
      }
      // A rename is a move of every file beneath (each needs the change rule, as a single move
      // does); a folder without files is renamed by whoever may create and delete folders there.
      if (n === 0) check(actor, 'add', library);
      // Shallowest first: when the folder moves up into an ancestor, a resource's new address may be
      // another moving resource's old one, which the shallower one has left by then.
      const rows = (await lockRows(client, kind, key, from)).sort((a, b) => depth(a.folder_path) - depth(b.folder_path));
      refuseTooDeep([...rows.map((r) => r.folder_path), ...folders.rows.map((f) => f.path)], from, to);
      refuseUnchangeable(actor, library, rows);
      await refuseTakenAddresses(client, library, rows, from, to);

      const moved: MovedResource[] = [];
      for (const current of rows) {
        const updated = await client.query<ResourceRow>(`UPDATE resources SET folder_path = $2, updated_at = $3 WHERE id = $1 RETURNING *`, [
          current.id,
          renamedPath(current.folder_path, from, to),
          now,
        ]);
        const next = updated.rows[0]!;
        const move = {
          from: { library: formatLibrary(library), path: current.folder_path, uri: rowUri(current) },
          to: { library: formatLibrary(library), path: next.folder_path, uri: rowUri(next) },
        };
        await client.query(
          `INSERT INTO resource_aliases (uri, resource_id, vacated_at) VALUES ($1, $2, $3)
           ON CONFLICT (uri, resource_id) DO UPDATE SET vacated_at = EXCLUDED.vacated_at`,
          [move.from.uri, current.id, now],
        );
        await recordEvent(client, current.id, 'moved', actor, { ...move, folder_rename: { path: from, new_path: to } }, now);
        await recordResourceEvent(client, config, actor, { resourceId: current.id, tool: MOVE_AUDIT_TOOL, parameters: { reference: `mcp:resource:${current.id}`, ...move } }, now);
        await recordWriter(client, actor, current.id, false, now);
        changed('updated', next, current);
        moved.push({ id: current.id, reference: `mcp:resource:${current.id}`, from_uri: move.from.uri, uri: move.to.uri });
      }

      // The stored folders follow: the old rows go, their renamed copies come (a folder already at
      // the destination is kept as it is), and the new path's ancestors are recorded.
      await client.query(`DELETE FROM resource_folders WHERE library_kind = $1 AND library_key = $2 AND (path = $3 OR path LIKE $3 || '/%')`, [kind, key, from]);
      await client.query(
        `INSERT INTO resource_folders (library_kind, library_key, path, description, created_at, updated_at)
         SELECT $1, $2, p, d, c, $6 FROM unnest($3::text[], $4::text[], $5::timestamptz[]) AS f(p, d, c)
         ON CONFLICT (library_kind, library_key, path) DO NOTHING`,
        [kind, key, folders.rows.map((f) => renamedPath(f.path, from, to)), folders.rows.map((f) => f.description), folders.rows.map((f) => f.created_at), now],
      );
      await recordFolders(client, library, to, now);
      return { library: formatLibrary(library), path: from, new_path: to, moved, folders: folders.rowCount ?? 0 };
    });
  }

  return { renameFolder };
}

/** Thrown when a file beneath is being written: the rename's transaction rolls back and its activity tries again. */
export class FolderBusyError extends Error {
  constructor(path: string) {
    super(`a file beneath folder ${path} is being written; the rename is tried again`);
    this.name = 'FolderBusyError';
  }
}

/**
 * The rows beneath, locked without waiting: a single move holds its row and then waits for the
 * library lock this rename holds, so waiting here would deadlock; the rename gives way instead.
 */
async function lockRows(client: Client, kind: string, key: string, from: string): Promise<ResourceRow[]> {
  try {
    const res = await client.query<ResourceRow>(
      `SELECT * FROM resources WHERE library_kind = $1 AND library_key = $2 AND (folder_path = $3 OR folder_path LIKE $3 || '/%') ORDER BY id FOR UPDATE NOWAIT`,
      [kind, key, from],
    );
    return res.rows;
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') throw new FolderBusyError(from);
    throw err;
  }
}

/** Whether every resource a rename moved is still at the address it was moved to. */
async function stillWhereMoved(client: Client, done: FolderRenameResult): Promise<boolean> {
  const rows = await client.query<ResourceRow>(`SELECT * FROM resources WHERE id = ANY($1::text[])`, [done.moved.map((m) => m.id)]);
  const at = new Map(rows.rows.map((row) => [row.id, rowUri(row)]));
  return done.moved.every((m) => at.get(m.id) === m.uri);
}

function depth(path: string): number {
  return path === '' ? 0 : path.split('/').length;
}

/** Every renamed folder path must still keep the folder rule (depth and length grow when a folder is nested deeper). */
function refuseTooDeep(paths: readonly string[], from: string, to: string): void {
  for (const path of paths) {
    const problem = folderPathProblem(renamedPath(path, from, to));
    if (problem) throw new ResourceError('invalid', `${path} would become ${renamedPath(path, from, to)}: ${problem}; nothing was moved`);
  }
}

/** Every file beneath must be one the caller may change; the refusal names the first few it may not. */
function refuseUnchangeable(actor: ResourceActor, library: Library, rows: readonly ResourceRow[]): void {
  const refused = rows.filter((row) => !may(actor, 'change', { library, uploader: row.uploader }));
  if (refused.length === 0) return;
  const named = refused.slice(0, 5).map((row) => `"${row.file_name}" (${rowUri(row)})`);
  throw new ResourceError(
    'forbidden',
    `you cannot change ${plural(refused.length, 'file', 'files')} beneath this folder, so it cannot be renamed: ${named.join(', ')}${refused.length > 5 ? ', …' : ''}`,
    { count: refused.length, files: refused.slice(0, 5).map((row) => ({ id: row.id, uri: rowUri(row) })) },
  );
}

/** A destination address held by a resource that is not moving refuses the rename, naming it. */
async function refuseTakenAddresses(client: Client, library: Library, rows: readonly ResourceRow[], from: string, to: string): Promise<void> {
  if (rows.length === 0) return;
  const { kind, key } = libraryKey(library);
  const taken = await client.query<ResourceRow>(
    `SELECT r.* FROM resources r
     JOIN unnest($3::text[], $4::text[]) AS t(folder_path, file_name) ON r.folder_path = t.folder_path AND r.file_name = t.file_name
     WHERE r.library_kind = $1 AND r.library_key = $2 AND r.id <> ALL($5::text[])
     ORDER BY r.folder_path, r.file_name LIMIT 1`,
    [kind, key, rows.map((r) => renamedPath(r.folder_path, from, to)), rows.map((r) => r.file_name), rows.map((r) => r.id)],
  );
  const existing = taken.rows[0];
  if (existing) {
    throw new ResourceError('conflict', `a file named "${existing.file_name}" already exists in ${formatLibraryPath(library, existing.folder_path)} (${rowUri(existing)}); nothing was moved`, {
      existing: { id: existing.id, uri: rowUri(existing), file_name: existing.file_name },
    });
  }
}
