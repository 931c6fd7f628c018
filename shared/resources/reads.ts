/**
 * Reading managed resources: one by id, by reference or address (a live address wins over a
 * vacated one), and the head content by door (stamping last read and auditing the read: audit-trail.ts).
 */
import type { Readable } from 'node:stream';
import { isObjstoreError } from '../objstore/index.js';
import { auditToolOfDoor, recordResourceEvent } from './audit-trail.js';
import { notFound, type ResourceContext } from './context.js';
import { normalizeFolderPath } from './folders.js';
import { addressOrThrow } from './input.js';
import { libraryKey, LibraryTextError, parseLibraryPath } from './library.js';
import { isResourceId, rowUri, toView, type ResourceRow, type VersionRow } from './rows.js';
import { ResourceError, type ContentReadOptions, type Library, type ReadDoor, type ResourceActor, type ResourceService, type ResourceView } from './types.js';
import { parseCanonicalUri, parseReference } from './uri.js';

const readDoors = Object.keys(auditToolOfDoor) as ReadDoor[];

export function createResourceReads(context: ResourceContext): Pick<ResourceService, 'get' | 'resolve' | 'openContent' | 'headObject'> {
  const { config, db, clock, objects, checkVisible, rowByAddress, visibleRow } = context;

  async function get(actor: ResourceActor, id: string): Promise<ResourceView> {
    return toView(await visibleRow(actor, id), actor);
  }

  /** The live row at a canonical URI, else the resource that most recently vacated it. */
  async function rowAtUri(uri: string): Promise<ResourceRow | undefined> {
    const parsed = parseCanonicalUri(uri);
    if (!parsed) return undefined;
    addressOrThrow(parsed);
    const live = await rowByAddress(db, parsed.library, parsed.folderPath, parsed.fileName);
    if (live) return live;
    // Aliases are stored in canonical form; re-encode what was given so equivalent spellings match.
    const canonical = rowUri({ ...libraryColumns(parsed.library), folder_path: parsed.folderPath, file_name: parsed.fileName });
    const alias = await db.query<ResourceRow>(
      `SELECT r.* FROM resource_aliases a JOIN resources r ON r.id = a.resource_id WHERE a.uri = $1 ORDER BY a.vacated_at DESC LIMIT 1`,
      [canonical],
    );
    return alias.rows[0];
  }

  async function resolve(actor: ResourceActor, text: string): Promise<ResourceView> {
    const t = text.trim();
    const id = parseReference(t) ?? (isResourceId(t) ? t : undefined);
    if (id !== undefined) return get(actor, id);
    let row: ResourceRow | undefined;
    if (t.startsWith('mcp://')) {
      if (!parseCanonicalUri(t)) throw new ResourceError('invalid', `"${text}" is not a resource address (mcp://user/…, mcp://persona/…, mcp://global/…)`);
      row = await rowAtUri(t);
    } else {
      // `<library text>/<folder path>/<file name>`, e.g. `global/templates/report.docx`.
      const slash = t.lastIndexOf('/');
      if (slash < 0) {
        throw new ResourceError('invalid', `"${text}" is neither mcp:resource:<id>, an mcp:// address, nor <library>/<folder>/<file name>`);
      }
      let parsed;
      try {
        parsed = parseLibraryPath(t.slice(0, slash), actor.subject);
      } catch (err) {
        if (err instanceof LibraryTextError) throw new ResourceError('invalid', err.message);
        throw err;
      }
      const fileName = t.slice(slash + 1);
      row = await rowAtUri(rowUri({ ...libraryColumns(parsed.library), folder_path: normalizeFolderPath(parsed.folderPath), file_name: fileName }));
    }
    if (!row) throw notFound();
    checkVisible(actor, row);
    return toView(row, actor);
  }

  async function openContent(
    actor: ResourceActor,
    id: string,
    door: ReadDoor,
    access: 'read' | 'dereference' = door === 'resources_read' ? 'read' : 'dereference',
    opts: ContentReadOptions = {},
  ): Promise<{ resource: ResourceView; body: Readable; range?: { start: number; end: number; size: number } }> {
    if (!readDoors.includes(door)) throw new ResourceError('invalid', `unknown read door ${String(door)}`);
    // MCP resources/read is membership-scoped; the other doors, and manage_resource, follow the by-id rule.
    const row = await visibleRow(actor, id, access);
    const head = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 AND version = $2`, [row.id, row.head_version]);
    const version = head.rows[0];
    if (!version) throw notFound('resource content');
    // The range is decided against the head version read here, so its bytes and its size agree.
    const size = Number(version.size);
    const range = opts.range?.({ size, sha256: version.content_sha256 });
    let body: Readable;
    try {
      body = (await objects().store.getObject(version.object_bucket, version.object_key, range ? { range } : {})).body;
    } catch (err) {
      // Deleted or replaced-and-pruned between the row read and the object read.
      if (isObjstoreError(err, 'NoSuchKey')) throw notFound('resource content');
      throw err;
    }
    const now = clock();
    try {
      // An image tile (portal_preview) is audited but does not stamp last read (spec).
      if (door !== 'portal_preview') await db.query(`UPDATE resources SET last_read_at = $2 WHERE id = $1`, [row.id, now]);
      await recordResourceEvent(
        db,
        config,
        actor,
        { resourceId: row.id, tool: auditToolOfDoor[door], parameters: { reference: `mcp:resource:${row.id}`, uri: rowUri(row), version: row.head_version } },
        now,
      );
    } catch (err) {
      body.destroy();
      throw err;
    }
    const stamped = door !== 'portal_preview' ? { ...row, last_read_at: now } : row;
    return { resource: toView(stamped, actor), body, ...(range ? { range: { ...range, size } } : {}) };
  }

  async function headObject(actor: ResourceActor, id: string): Promise<{ resource: ResourceView; object: { bucket: string; key: string } }> {
    const row = await visibleRow(actor, id, 'dereference');
    const head = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 AND version = $2`, [row.id, row.head_version]);
    const version = head.rows[0];
    if (!version) throw notFound('resource content');
    return { resource: toView(row, actor), object: { bucket: version.object_bucket, key: version.object_key } };
  }

  return { get, resolve, openContent, headObject };
}

function libraryColumns(library: Library): { library_kind: string; library_key: string } {
  const { kind, key } = libraryKey(library);
  return { library_kind: kind, library_key: key };
}
