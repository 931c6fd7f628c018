/**
 * Removing a deleted webhook source (spec document 3: "Deleting a source stops its schedules and
 * removes its table, partitions, resources and segments through the same recorded steps"). The
 * admin DELETE only marks the source (sources.ts markRemoving); the `webhookSourceRemoval`
 * workflow first stops the source's compactions, then calls removeSource, whose steps are:
 *
 *   1. every window removed through compacted retention's recorded steps (retention.ts
 *      removeWindow: partition unregistered, resource deleted, raw segments deleted);
 *   2. the view and both tables dropped;
 *   3. any object left under the source's raw prefix deleted (a segment no window recorded);
 *   4. the source row deleted: its windows, request counts and rejections cascade, the name is free.
 *
 * Each step may be repeated, and the windows' steps are recorded, so a pass stopped anywhere is
 * finished by the next. No Temporal here: the activity calls it.
 */
import type { ScratchStorage } from '../sql/scratch/index.js';
import { rawPrefix } from './layout.js';
import { removeWindow, type WindowRemovalDeps } from './retention.js';
import type { RemovingSource, WebhookSources } from './sources.js';
import type { WebhookTableCatalog } from './table.js';
import type { WebhookWindows } from './windows.js';

export interface SourceRemovalDeps extends WindowRemovalDeps {
  windows: Pick<WebhookWindows, 'unremoved' | 'removalStep'>;
  tables: Pick<WebhookTableCatalog, 'scratch' | 'names' | 'drop' | 'unregisterCompactedWindow'>;
  sources: Pick<WebhookSources, 'forget'>;
}

export interface SourceRemovalResult {
  windowsRemoved: number;
  /** Raw segments deleted, those of its windows and any left over. */
  segmentsDeleted: number;
}

export async function removeSource(deps: SourceRemovalDeps, source: RemovingSource): Promise<SourceRemovalResult> {
  const result: SourceRemovalResult = { windowsRemoved: 0, segmentsDeleted: 0 };
  for (const window of await deps.windows.unremoved(source.id)) {
    result.segmentsDeleted += await removeWindow(deps, source, window);
    result.windowsRemoved++;
  }
  await deps.tables.drop(source);
  deps.heartbeat?.({ step: 'tables dropped' });
  result.segmentsDeleted += await deleteAll(deps.storage, rawPrefix(source.name));
  deps.heartbeat?.({ step: 'segments deleted' });
  await deps.sources.forget(source.id);
  deps.heartbeat?.({ step: 'source deleted' });
  return result;
}

/** Deletes every object under `prefix`, at any depth; answers how many. */
async function deleteAll(storage: ScratchStorage, prefix: string): Promise<number> {
  const { store } = storage.connection;
  let deleted = 0;
  for (;;) {
    // Each page is deleted before the next is asked for, so the listing always starts afresh.
    const page = await store.listObjects(storage.bucket, { prefix, maxKeys: 1000 });
    for (const object of page.objects) await store.deleteObject(storage.bucket, object.key);
    deleted += page.objects.length;
    if (!page.isTruncated) return deleted;
  }
}
