/**
 * The requests of the bulk actions and of moves, each one documented route per file (spec: "one
 * request per file"): PATCH /api/v1/resources/{id} (`path` to move, `add_tags` to tag), DELETE
 * /api/v1/resources/{id}, DELETE /api/v1/resources/folders, POST /api/v1/resources/folders/rename
 * (a folder moves with everything beneath it, up to the server's 500-file limit), and the listing
 * of every file beneath a folder (GET /api/v1/resources, paged). A move is recorded so it can be
 * undone with the same routes.
 */
import { api, messageOf, unwrap } from '../../api/client';
import { apiFolderPath, folderName, joinFolderPath, parentFolder, type FolderRef } from '../address';
import type { ListedResource } from '../listing/rows';
import { facetFolder } from '../tree/folders';
import type { BulkItem } from './items';

/** A move that happened: enough to put the item back where it was. */
export type MoveRecord =
  | { kind: 'file'; id: string; name: string; from: string; to: string }
  | { kind: 'folder'; library: string; name: string; from: string; to: string };

/** Where the item is now (a folder's parent path), for "already there". */
export function placeOf(item: BulkItem): string {
  return item.kind === 'file' ? item.resource.path : (parentFolder(item.folder)?.path ?? '');
}

/** Moves the item into folder `destination` of its library. */
export async function moveItem(item: BulkItem, destination: string): Promise<MoveRecord> {
  if (item.kind === 'file') {
    const moved = unwrap(await api.PATCH('/api/v1/resources/{id}', { params: { path: { id: item.resource.id } }, body: { path: destination } }));
    return { kind: 'file', id: item.resource.id, name: item.name, from: item.resource.path, to: moved.path };
  }
  const { library, path } = item.folder;
  const answer = unwrap(await api.POST('/api/v1/resources/folders/rename', { body: { library, path, new_path: joinFolderPath(destination, folderName(path)) } }));
  return { kind: 'folder', library, name: item.name, from: path, to: answer.new_path };
}

/** Puts a moved item back where it was. */
export async function undoMove(record: MoveRecord): Promise<void> {
  if (record.kind === 'file') {
    unwrap(await api.PATCH('/api/v1/resources/{id}', { params: { path: { id: record.id } }, body: { path: record.from } }));
  } else {
    unwrap(await api.POST('/api/v1/resources/folders/rename', { body: { library: record.library, path: record.to, new_path: record.from } }));
  }
}

/** Puts moved items back, the last moved first; the failures in the server's words. */
export async function undoMoves(records: readonly MoveRecord[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const r of [...records].reverse()) {
    try {
      await undoMove(r);
    } catch (e) {
      failures.push({ name: r.name, message: messageOf(e) });
    }
  }
  return failures;
}

export async function addTags(resource: ListedResource, tags: string[]): Promise<void> {
  unwrap(await api.PATCH('/api/v1/resources/{id}', { params: { path: { id: resource.id } }, body: { add_tags: tags } }));
}

export async function deleteFile(resource: ListedResource): Promise<void> {
  unwrap(await api.DELETE('/api/v1/resources/{id}', { params: { path: { id: resource.id } } }));
}

export async function deleteFolder(folder: FolderRef): Promise<void> {
  unwrap(await api.DELETE('/api/v1/resources/folders', { body: { library: folder.library, path: folder.path } }));
}

const listPage = 1000;

/** Every file beneath a folder, at every depth (what a selected folder stands for). */
export async function filesBeneath(folder: FolderRef): Promise<ListedResource[]> {
  const files: ListedResource[] = [];
  let cursor: string | undefined;
  do {
    const page = unwrap(
      await api.GET('/api/v1/resources', { params: { query: { path: apiFolderPath(folder), direct: 'false', sort: 'name', limit: listPage, ...(cursor ? { cursor } : {}) } } }),
    );
    files.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return files;
}

/** The folders beneath a folder, at every depth (not itself). */
export async function foldersBeneath(folder: FolderRef): Promise<string[]> {
  const facets = unwrap(await api.GET('/api/v1/resources/facets', { params: { query: { path: apiFolderPath(folder) } } })).folders;
  return facets.map((f) => facetFolder(f).path).filter((p) => p.startsWith(`${folder.path}/`));
}

export interface Failure {
  name: string;
  message: string;
}

/**
 * Runs `work` for each task, `concurrency` at a time, calling `progress` as each ends; answers
 * the failures in the server's words, in the order of the tasks.
 */
export async function runEach<T>(
  tasks: readonly T[],
  work: (task: T) => Promise<void>,
  nameOf: (task: T) => string,
  progress: (done: number) => void,
  concurrency = 4,
): Promise<Array<Failure & { task: T }>> {
  const failed: Array<(Failure & { task: T }) | undefined> = new Array(tasks.length);
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        const task = tasks[i]!;
        try {
          await work(task);
        } catch (e) {
          failed[i] = { task, name: nameOf(task), message: messageOf(e) };
        }
        progress(++done);
      }
    }),
  );
  return failed.filter((f): f is Failure & { task: T } => f !== undefined);
}
