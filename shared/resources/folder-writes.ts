/**
 * Folders as things of their own: create one (with its ancestors), delete an empty one (with its
 * empty subfolders), describe one. The path rules are folders.ts's.
 */
import { withTransaction } from '../db/index.js';
import type { ResourceAction } from './authority.js';
import { plural, type ResourceContext } from './context.js';
import { descriptionOrThrow, folderPathOrThrow, libraryOrThrow } from './input.js';
import { formatLibraryPath, libraryKey } from './library.js';
import { ResourceError, type Library, type ResourceActor, type ResourceService } from './types.js';

export function createFolderWrites(context: ResourceContext): Pick<ResourceService, 'createFolder' | 'deleteFolder' | 'describeFolder'> {
  const { db, clock, check, checkLibraryExists, lockLibrary, recordFolders } = context;

  function folderTarget(actor: ResourceActor, library: Library, path: string, action: ResourceAction): string {
    libraryOrThrow(library);
    const folder = folderPathOrThrow(path);
    if (folder === '') throw new ResourceError('invalid', 'the library root is not a folder; name a folder path');
    check(actor, action, library);
    checkLibraryExists(library);
    return folder;
  }

  async function createFolder(actor: ResourceActor, library: Library, path: string): Promise<void> {
    const folder = folderTarget(actor, library, path, 'add');
    await withTransaction(db, async (client) => {
      await lockLibrary(client, library, 'shared');
      await recordFolders(client, library, folder, clock());
    });
  }

  async function deleteFolder(actor: ResourceActor, library: Library, path: string): Promise<void> {
    const folder = folderTarget(actor, library, path, 'add');
    const { kind, key } = libraryKey(library);
    await withTransaction(db, async (client) => {
      // Exclusive: no file can be filed into this library until the delete commits.
      await lockLibrary(client, library, 'exclusive');
      const exists = await client.query(`SELECT 1 FROM resource_folders WHERE library_kind = $1 AND library_key = $2 AND path = $3`, [kind, key, folder]);
      if (exists.rowCount === 0) throw new ResourceError('not_found', `folder ${formatLibraryPath(library, folder)} not found`);
      const held = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM resources WHERE library_kind = $1 AND library_key = $2 AND (folder_path = $3 OR folder_path LIKE $3 || '/%')`,
        [kind, key, folder],
      );
      const n = held.rows[0]?.n ?? 0;
      if (n > 0) {
        throw new ResourceError('conflict', `folder ${formatLibraryPath(library, folder)} still holds ${plural(n, 'file', 'files')}; only an empty folder can be deleted`, {
          count: n,
        });
      }
      // Its empty subfolders go with it: a folder row never outlives its ancestors.
      await client.query(`DELETE FROM resource_folders WHERE library_kind = $1 AND library_key = $2 AND (path = $3 OR path LIKE $3 || '/%')`, [kind, key, folder]);
      // Their (empty) facet counts go too; the parent records the delete as its last change.
      await client.query(
        `WITH gone AS (DELETE FROM resource_folder_stats WHERE library_kind = $1 AND library_key = $2 AND (path = $3 OR path LIKE $3 || '/%'))
         INSERT INTO resource_folder_stats AS s (library_kind, library_key, path, file_count, last_changed_at) VALUES ($1, $2, $4, 0, $5)
         ON CONFLICT (library_kind, library_key, path) DO UPDATE SET last_changed_at = greatest(s.last_changed_at, EXCLUDED.last_changed_at)`,
        [kind, key, folder, folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '', clock()],
      );
    });
  }

  async function describeFolder(actor: ResourceActor, library: Library, path: string, description: string): Promise<void> {
    const folder = folderTarget(actor, library, path, 'describe_folder');
    const text = descriptionOrThrow(description) ?? '';
    const { kind, key } = libraryKey(library);
    await withTransaction(db, async (client) => {
      await lockLibrary(client, library, 'shared');
      const now = clock();
      // Describing a folder that does not exist yet creates it (and its ancestors), as PUT would.
      await recordFolders(client, library, folder, now);
      await client.query(`UPDATE resource_folders SET description = $4, updated_at = $5 WHERE library_kind = $1 AND library_key = $2 AND path = $3`, [
        kind,
        key,
        folder,
        text,
        now,
      ]);
    });
  }

  return { createFolder, deleteFolder, describeFolder };
}
