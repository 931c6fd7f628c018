/** Database rows of the resources tables and their mapping to the views every surface answers. */
import { resourceActions } from './authority.js';
import { formatLibrary, libraryFromKey } from './library.js';
import type { Library, ResourceActor, ResourceView, SearchSetting, VersionView, WriteOrigin, WriterView } from './types.js';
import { canonicalUri, referenceOf } from './uri.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Resource ids are UUIDs: anything else can name no row (and must not reach a uuid column). */
export function isResourceId(text: string): boolean {
  return uuidPattern.test(text);
}

export interface ResourceRow {
  id: string;
  library_kind: string;
  library_key: string;
  folder_path: string;
  file_name: string;
  display_name: string;
  description: string;
  tags: string[];
  content_type: string;
  /** bigint arrives as text from pg. */
  size: string | number;
  content_sha256: string | null;
  head_version: number;
  search_setting: SearchSetting;
  uploader: string;
  created_at: Date;
  updated_at: Date;
  last_read_at: Date | null;
}

export interface VersionRow {
  resource_id: string;
  version: number;
  uploader: string;
  created_at: Date;
  size: string | number;
  content_type: string;
  content_sha256: string | null;
  change_summary: string | null;
  restored_from: number | null;
  origin: WriteOrigin | null;
  object_bucket: string;
  object_key: string;
}

export interface WriterRow {
  writer_kind: WriterView['kind'];
  writer_id: string;
  display: string;
  created: boolean;
  last_written_at: Date;
}

export function rowLibrary(row: Pick<ResourceRow, 'library_kind' | 'library_key'>): Library {
  return libraryFromKey(row.library_kind, row.library_key);
}

export function rowUri(row: Pick<ResourceRow, 'library_kind' | 'library_key' | 'folder_path' | 'file_name'>): string {
  return canonicalUri(rowLibrary(row), row.folder_path, row.file_name);
}

/**
 * `last_read_at` is included only for platform administrators (spec: Last read is admin-only);
 * `allowed_actions` are the actor's, by the rules the service enforces.
 */
export function toView(row: ResourceRow, actor: ResourceActor): ResourceView {
  const view: ResourceView = {
    id: row.id,
    library: formatLibrary(rowLibrary(row)),
    path: row.folder_path,
    file_name: row.file_name,
    display_name: row.display_name,
    description: row.description,
    tags: row.tags,
    content_type: row.content_type,
    size: Number(row.size),
    content_sha256: row.content_sha256,
    uploader: row.uploader,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    version: row.head_version,
    reference: referenceOf(row.id),
    uri: rowUri(row),
    search_setting: row.search_setting,
    allowed_actions: resourceActions(actor, {
      library: rowLibrary(row),
      uploader: row.uploader,
      file: { content_type: row.content_type, file_name: row.file_name, size: Number(row.size) },
    }),
  };
  if (actor.platformAdmin) view.last_read_at = row.last_read_at ? row.last_read_at.toISOString() : null;
  return view;
}

export function toVersionView(row: VersionRow): VersionView {
  return {
    version: row.version,
    uploader: row.uploader,
    created_at: row.created_at.toISOString(),
    size: Number(row.size),
    content_type: row.content_type,
    content_sha256: row.content_sha256,
    change_summary: row.change_summary,
    restored_from: row.restored_from,
    origin: row.origin,
  };
}

export function toWriterView(row: WriterRow): WriterView {
  return {
    kind: row.writer_kind,
    id: row.writer_id,
    display: row.display || row.writer_id,
    created: row.created,
    last_written_at: row.last_written_at.toISOString(),
  };
}
