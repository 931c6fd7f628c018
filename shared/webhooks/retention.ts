/**
 * Retention of one webhook source (spec document 3, "Webhook window"): the raw segments of
 * windows compacted and not owed, whose last segment is older than `raw_retention_days`, are
 * deleted; windows older than `compacted_retention_days` (0 keeps forever) are removed in the
 * spec's order — partition unregistered, then the resource deleted, then any raw segments — each
 * step recorded on the window (windows.ts), so a pass stopped half-way is finished by the next.
 * Every step may be repeated. No Temporal here: the activity calls it.
 */
import type { ResourceService } from '../resources/index.js';
import type { ScratchStorage } from '../sql/scratch/index.js';
import { compactorActor, listKeys } from './compaction.js';
import { rawWindowPrefix, windowValues } from './layout.js';
import type { WebhookTableCatalog } from './table.js';
import { windowName } from './window-rules.js';
import type { ExpiredWindow, WebhookWindows } from './windows.js';

/** What removing a window takes (removeWindow: compacted retention and a source's removal). */
export interface WindowRemovalDeps {
  windows: Pick<WebhookWindows, 'removalStep'>;
  storage: ScratchStorage;
  tables: Pick<WebhookTableCatalog, 'scratch' | 'names' | 'unregisterCompactedWindow'>;
  resources: Pick<ResourceService, 'delete'>;
  heartbeat?: (detail: { step: string; window?: string }) => void;
}

export interface RetentionDeps extends WindowRemovalDeps {
  windows: Pick<WebhookWindows, 'rawExpired' | 'markRawRemoved' | 'compactedExpired' | 'removalStep'>;
}

export interface RetentionSource {
  id: string;
  name: string;
  connection: string;
  persona: string;
  rawRetentionDays: number;
  compactedRetentionDays: number;
}

export interface RetentionResult {
  /** Windows whose raw segments were deleted. */
  rawRemoved: number;
  /** Windows removed entirely (compacted retention). */
  windowsRemoved: number;
  segmentsDeleted: number;
}

export async function applyRetention(deps: RetentionDeps, source: RetentionSource, nowMs: number): Promise<RetentionResult> {
  const result: RetentionResult = { rawRemoved: 0, windowsRemoved: 0, segmentsDeleted: 0 };
  const table = { name: source.name, connection: source.connection };

  for (const window of await deps.windows.rawExpired(source.id, { nowMs, rawRetentionDays: source.rawRetentionDays })) {
    result.segmentsDeleted += await deleteSegments(deps, table, window);
    await deps.windows.markRawRemoved(window, { landedSeq: window.landedSeq, atMs: nowMs });
    result.rawRemoved++;
    deps.heartbeat?.({ step: 'raw removed', window: windowName(window) });
  }

  for (const window of await deps.windows.compactedExpired(source.id, { nowMs, compactedRetentionDays: source.compactedRetentionDays })) {
    result.segmentsDeleted += await removeWindow(deps, source, window);
    result.windowsRemoved++;
  }
  return result;
}

/**
 * Removes a window in the spec's order — compacted partition unregistered, then its resource
 * deleted (every version), then its raw partition and segments — recording each step, so a pass
 * stopped anywhere is finished by the next (each step may be repeated). Compacted retention and a
 * source's removal (removal.ts) both remove windows through here. Answers the segments deleted.
 */
export async function removeWindow(
  deps: WindowRemovalDeps,
  source: Pick<RetentionSource, 'name' | 'connection' | 'persona'>,
  window: ExpiredWindow,
): Promise<number> {
  const table = { name: source.name, connection: source.connection };
  const name = windowName(window);
  if (window.removalStep === null) {
    // First out of the view: from here on the window is read from raw until raw is gone too.
    await deps.tables.unregisterCompactedWindow(table, window);
    await deps.windows.removalStep(window, 'unregistered');
    deps.heartbeat?.({ step: 'unregistered', window: name });
  }
  if (window.removalStep !== 'resource_deleted') {
    if (window.resourceId) await deleteResource(deps, source.persona, window.resourceId);
    await deps.windows.removalStep(window, 'resource_deleted');
    deps.heartbeat?.({ step: 'resource deleted', window: name });
  }
  const segments = await deleteSegments(deps, table, window);
  await deps.windows.removalStep(window, 'removed');
  deps.heartbeat?.({ step: 'removed', window: name });
  return segments;
}

/**
 * Deletes a window's raw segments, its raw partition unregistered first: an engine may refuse to
 * read a registered partition without files (DuckDB does), and the window is read from its
 * compacted file (or is being removed) anyway.
 */
async function deleteSegments(deps: Pick<WindowRemovalDeps, 'storage' | 'tables'>, table: { name: string; connection: string }, window: { dt: string; hour: string; minute: string }): Promise<number> {
  await deps.tables.scratch(table).unregisterPartition(deps.tables.names(table).raw, windowValues(window));
  const keys = await listKeys(deps.storage, rawWindowPrefix(table.name, window));
  for (const key of keys) await deps.storage.connection.store.deleteObject(deps.storage.bucket, key);
  return keys.length;
}

/** Deletes the window's file with every version; already gone is done. */
async function deleteResource(deps: Pick<WindowRemovalDeps, 'resources'>, persona: string, resourceId: string): Promise<void> {
  try {
    await deps.resources.delete(compactorActor(persona), resourceId, { force: true });
  } catch (error) {
    if ((error as { code?: string }).code !== 'not_found') throw error;
  }
}
