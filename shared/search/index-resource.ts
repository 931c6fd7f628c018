/**
 * Indexes one resource's latest state (the indexResource workflow's activity): reads the head
 * version through the resource service, decides the mode (rules.ts), reads at most what that mode
 * needs from storage (never more than 8 MB, whatever the file's size), extracts text and records
 * it. Idempotent: the same head version indexed the same way is left as it is, so a burst of
 * requests costs one read.
 */
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import { isObjstoreError, readAll, type ObjectStore } from '../objstore/index.js';
import { libraryKey, parseLibrary, ResourceError, type ResourceActor, type ResourceService, type ResourceView } from '../resources/index.js';
import { extractText } from './extract/index.js';
import { confirmRules, indexedState, MAX_INDEXED_CHARS, recordIndex, versionOrigin } from './index-store.js';
import { tableColumns, TABLE_HEADER_BYTES } from './index-details.js';
import { indexModeFor, isTableOfValues, MAX_CONTENT_INDEX_BYTES, rulesFingerprint, type IndexMode, type IndexSubject } from './rules.js';

export interface IndexerDeps {
  config: Pick<PlatformConfig, 'resources'>;
  db: Db;
  resources: ResourceService;
  /** The object store holding resource bytes (resourceConnectionName). */
  store: ObjectStore;
  clock?: () => Date;
}

export type IndexOutcome =
  | { status: 'indexed'; resourceId: string; version: number; mode: IndexMode; chars: number }
  | { status: 'unchanged'; resourceId: string; version: number; mode: IndexMode }
  | { status: 'gone'; resourceId: string };

/** The platform's own reader of every library (the by-id rule admits a platform administrator). */
export const indexerActor: ResourceActor = {
  subject: 'platform:search-indexer',
  personas: [],
  adminOfPersonas: [],
  platformAdmin: true,
  writer: { kind: 'script', scriptId: 'search-indexer', name: 'search indexer' },
  authType: 'platform',
};

export async function indexResource(deps: IndexerDeps, resourceId: string): Promise<IndexOutcome> {
  const head = await headOf(deps.resources, resourceId);
  if (!head) return { status: 'gone', resourceId };
  const { resource, object } = head;
  const origin = await versionOrigin(deps.db, resource.id, resource.version);
  const rules = deps.config.resources.index;
  const fingerprint = rulesFingerprint(rules);
  const mode = indexModeFor(subjectOf(resource), { size: resource.size, origin }, rules);
  const prior = await indexedState(deps.db, resource.id);
  if (prior && prior.version === resource.version && prior.mode === mode) {
    if (prior.rules !== fingerprint) await confirmRules(deps.db, resource.id, fingerprint);
    return { status: 'unchanged', resourceId, version: resource.version, mode };
  }
  const contents = await contentsFor(deps.store, resource, object, mode);
  const recorded = await recordIndex(deps.db, { resourceId: resource.id, version: resource.version, mode, contents, at: (deps.clock ?? (() => new Date()))(), rules: fingerprint });
  return recorded ? { status: 'indexed', resourceId, version: resource.version, mode, chars: contents.length } : { status: 'gone', resourceId };
}

async function headOf(resources: ResourceService, id: string) {
  try {
    return await resources.headObject(indexerActor, id);
  } catch (error) {
    if (error instanceof ResourceError && error.code === 'not_found') return undefined;
    throw error;
  }
}

function subjectOf(resource: ResourceView): IndexSubject {
  return {
    search_setting: resource.search_setting,
    library: libraryKey(parseLibrary(resource.library, indexerActor.subject)),
    path: resource.path,
    file_name: resource.file_name,
    content_type: resource.content_type,
  };
}

/** The text indexed beside the metadata: a table of values' column names (details), or a bounded text prefix (contents). */
async function contentsFor(store: ObjectStore, resource: ResourceView, object: { bucket: string; key: string }, mode: IndexMode): Promise<string> {
  if (mode === 'details') {
    if (!isTableOfValues(resource.content_type, resource.file_name)) return '';
    const bytes = await readPrefix(store, object, TABLE_HEADER_BYTES);
    return tableColumns(bytes, resource.content_type, resource.file_name).join(' ');
  }
  if (mode !== 'contents') return '';
  // Documents (PDF, office) are read whole to be parsed; the mode guarantees at most 8 MB.
  const bytes = await readPrefix(store, object, MAX_CONTENT_INDEX_BYTES);
  if (bytes.length === 0) return '';
  // A library's PDFs wait in its own turn: one library's backlog does not hold up another's.
  return (await extractText(bytes, resource.content_type, resource.file_name, MAX_INDEXED_CHARS, `library:${resource.library}`)) ?? '';
}

/** At most `limit` bytes from the start of the object (one ranged read). */
async function readPrefix(store: ObjectStore, object: { bucket: string; key: string }, limit: number): Promise<Buffer> {
  try {
    const res = await store.getObject(object.bucket, object.key, { range: { start: 0, end: limit - 1 } });
    return (await readAll(res.body, limit)).bytes;
  } catch (error) {
    // An empty object has no byte 0 to range over.
    if (isObjstoreError(error, 'InvalidRange')) return Buffer.alloc(0);
    // Pruned or deleted since the head was read: the activity's retry reads the new head (or finds it gone).
    if (isObjstoreError(error, 'NoSuchKey')) throw new Error(`the head version of ${object.key} changed while it was being indexed`);
    throw error;
  }
}
