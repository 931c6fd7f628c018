/**
 * Writing managed resources: create (at an address, per if_exists), edit details and move,
 * replace the content, restore an old version, delete. Bytes are stored before the transaction
 * that records them and removed again when it fails (see service.ts on concurrency).
 */
import type { Readable } from 'node:stream';
import { uuidv7 } from '../crypto/index.js';
import { isObjstoreError } from '../objstore/index.js';
import { isAgent, may, mayMove, refusal } from './authority.js';
import { MOVE_AUDIT_TOOL, recordResourceEvent } from './audit-trail.js';
import { chooseContentType, contentTypeFromName } from './content-type.js';
import { actorOrigin, notFound, plural, type ResourceContext, type StoredObject, type VersionContent } from './context.js';
import { countsHoldingDelete, holdsDelete } from './delete-rule.js';
import { createDetails, editedTags, executableTypeOrThrow, fileNameOrThrow, replaceDetails, updateDetails } from './input.js';
import { formatLibrary, formatLibraryPath, libraryKey, sameLibrary } from './library.js';
import { checkSeenPerson } from './people.js';
import { rowLibrary, rowUri, toView, type ResourceRow, type VersionRow } from './rows.js';
import {
  ResourceError,
  type CreateInput,
  type CreateOutcome,
  type CreateResult,
  type DeleteOptions,
  type IfExists,
  type ReplaceInput,
  type ResourceActor,
  type ResourceService,
  type ResourceView,
  type UpdateInput,
} from './types.js';
import { storeUpload as putUpload } from './upload.js';

export function createResourceWrites(context: ResourceContext): Pick<ResourceService, 'create' | 'update' | 'replaceContent' | 'delete' | 'restore'> {
  const { config, db, log, clock, references, objects, bucket, changeTransaction, removeObjects } = context;
  const { check, checkChange, checkLibraryExists, rowById, rowByAddress, visibleRow, countReferences } = context;
  const { lockLibrary, recordFolders, recordWriter, recordEvent, insertVersion, appendVersion } = context;
  const maxBytes = config.resources.managed.max_upload_bytes;

  // ---------------------------------------------------------------- create

  async function create(actor: ResourceActor, input: CreateInput): Promise<CreateResult> {
    let details: ReturnType<typeof createDetails>;
    let contentType: string;
    let existing: ResourceRow | undefined;
    const ifExists: IfExists = input.if_exists ?? 'fail';
    try {
      if (!['fail', 'skip_unchanged', 'replace'].includes(ifExists)) {
        throw new ResourceError('invalid', 'if_exists must be one of fail, skip_unchanged, replace');
      }
      details = createDetails(input);
      contentType = contentTypeFor(details.fileName, details.declaredType);
      executableTypeOrThrow(details.fileName, contentType, details.declaredType);
      const { library, folderPath, fileName } = details;
      existing = await rowByAddress(db, library, folderPath, fileName);
      const mayChangeExisting = existing !== undefined && ifExists !== 'fail' && may(actor, 'change', { library, uploader: existing.uploader }) && may(actor, 'dereference', { library });
      if (!mayChangeExisting) {
        check(actor, 'add', library);
        checkLibraryExists(library);
      }
      if (existing && ifExists === 'fail') throw conflictAt(existing);
    } catch (err) {
      discard(input.body);
      throw err;
    }
    const { library, folderPath, fileName, displayName, description, tags, searchSetting, changeSummary, objectName } = details;

    const newId = uuidv7();
    const versionKey = `${existing?.id ?? newId}/${uuidv7()}`;
    const object: StoredObject = { bucket: await bucket(), key: objectName === undefined ? versionKey : `${versionKey}/${objectName}` };
    const stored = await (async () => {
      try {
        return await storeUpload(object, input.body, fileName, contentType);
      } catch (err) {
        discard(input.body);
        throw err;
      }
    })();

    let outcome: CreateOutcome = 'created';
    let pruned: StoredObject[] = [];
    let keepObject = false;
    try {
      const row = await changeTransaction(async (client, changed) => {
        await lockLibrary(client, library, 'shared');
        const now = clock();
        let current = await rowByAddress(client, library, folderPath, fileName, true);
        if (!current) {
          const inserted = await client.query<ResourceRow>(
            `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, description, tags, content_type, size, content_sha256, head_version, search_setting, uploader, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, $14, $14)
             ON CONFLICT (library_kind, library_key, folder_path, file_name) DO NOTHING
             RETURNING *`,
            [newId, libraryKey(library).kind, libraryKey(library).key, folderPath, fileName, displayName, description, tags, contentType, stored.size, stored.sha256, searchSetting, actor.subject, now],
          );
          const fresh = inserted.rows[0];
          if (fresh) {
            await insertVersion(client, {
              resourceId: fresh.id,
              version: 1,
              uploader: actor.subject,
              now,
              size: stored.size,
              contentType,
              sha256: stored.sha256,
              changeSummary,
              restoredFrom: null,
              origin: input.origin,
              object,
            });
            await recordFolders(client, library, folderPath, now);
            await recordWriter(client, actor, fresh.id, true, now);
            await recordEvent(client, fresh.id, 'created', actor, { version: 1, origin: input.origin }, now);
            changed('created', fresh);
            outcome = 'created';
            keepObject = true;
            return fresh;
          }
          // Lost the race to a simultaneous create: the winner's row is there now.
          current = await rowByAddress(client, library, folderPath, fileName, true);
          if (!current) throw new ResourceError('conflict', `the address ${formatLibraryPath(library, folderPath)}/${fileName} changed while uploading; try again`);
        }
        if (ifExists === 'fail') throw conflictAt(current);
        checkChange(actor, current);
        if (ifExists === 'skip_unchanged' && current.content_sha256 !== null && current.content_sha256 === stored.sha256) {
          outcome = 'unchanged';
          return current;
        }
        const appended = await appendVersion(client, actor, current, {
          size: stored.size,
          contentType,
          sha256: stored.sha256,
          changeSummary,
          restoredFrom: null,
          origin: input.origin,
          object,
          now,
          eventKind: 'revised',
        });
        pruned = appended.pruned;
        changed('replaced', appended.row);
        outcome = 'revised';
        keepObject = true;
        return appended.row;
      });
      if (!keepObject) await removeObjects([object]);
      await removeObjects(pruned);
      return { outcome, resource: toView(row, actor) };
    } catch (err) {
      await removeObjects([object]);
      throw err;
    }
  }

  async function storeUpload(object: StoredObject, body: Readable, fileName: string, contentType: string) {
    return putUpload(objects().store, object, body, { fileName, contentType, maxBytes });
  }

  // ---------------------------------------------------------------- writes by id

  async function update(actor: ResourceActor, id: string, input: UpdateInput): Promise<ResourceView> {
    const { displayName, description, tags: wholeTags, tagEdit, searchSetting, targetPath, library: targetLibrary } = updateDetails(input);

    let moved = false;
    const row = await changeTransaction(async (client, changed) => {
      const current = await rowById(client, id, true);
      if (!current) throw notFound();
      checkChange(actor, current);
      // Added and removed tags apply to the tags of the locked row: a concurrent edit is never lost.
      const tags = tagEdit ? editedTags(current.tags, tagEdit) : wholeTags;
      const fromLibrary = rowLibrary(current);
      const toLibrary = targetLibrary ?? fromLibrary;
      const toPath = targetPath ?? current.folder_path;
      const libraryChanges = !sameLibrary(fromLibrary, toLibrary);
      const now = clock();
      moved = libraryChanges || toPath !== current.folder_path;
      if (libraryChanges) {
        if (isAgent(actor)) {
          throw new ResourceError('forbidden', 'agents cannot move resources between libraries; a person can, with Edit details > Top-level folder');
        }
        // The rule the offered move targets come from (allowed_actions, GET …/move-targets).
        if (!mayMove(actor, { library: fromLibrary, uploader: current.uploader }, toLibrary)) {
          throw new ResourceError('forbidden', refusal('move_to', formatLibrary(toLibrary)));
        }
        checkLibraryExists(toLibrary);
        await checkSeenPerson(client, actor, toLibrary);
      }
      if (moved) {
        // Re-filing a name applies today's name rule: a legacy name now refused stays where it is.
        fileNameOrThrow(current.file_name);
        await lockLibrary(client, toLibrary, 'shared');
        const collision = await rowByAddress(client, toLibrary, toPath, current.file_name);
        if (collision && collision.id !== current.id) throw conflictAt(collision);
      }
      const { kind, key } = libraryKey(toLibrary);
      let updated;
      try {
        updated = await client.query<ResourceRow>(
          `UPDATE resources SET library_kind = $2, library_key = $3, folder_path = $4,
             display_name = COALESCE($5, display_name), description = COALESCE($6, description),
             tags = COALESCE($7, tags), search_setting = COALESCE($8, search_setting), updated_at = $9
           WHERE id = $1 RETURNING *`,
          [id, kind, key, toPath, displayName ?? null, description ?? null, tags ?? null, searchSetting ?? null, now],
        );
      } catch (err) {
        if (isUniqueViolation(err)) {
          const taken = await rowByAddress(db, toLibrary, toPath, current.file_name);
          if (taken) throw conflictAt(taken);
          throw new ResourceError('conflict', `a file named "${current.file_name}" already exists in ${formatLibraryPath(toLibrary, toPath)}`);
        }
        throw err;
      }
      const next = updated.rows[0]!;
      if (moved) {
        const fromUri = rowUri(current);
        await client.query(
          `INSERT INTO resource_aliases (uri, resource_id, vacated_at) VALUES ($1, $2, $3)
           ON CONFLICT (uri, resource_id) DO UPDATE SET vacated_at = EXCLUDED.vacated_at`,
          [fromUri, id, now],
        );
        await recordFolders(client, toLibrary, toPath, now);
        const move = {
          from: { library: formatLibrary(fromLibrary), path: current.folder_path, uri: fromUri },
          to: { library: formatLibrary(toLibrary), path: toPath, uri: rowUri(next) },
        };
        await recordEvent(client, id, 'moved', actor, move, now);
        // The audit row commits with the move, or not at all (spec: who moved what, from where to where).
        await recordResourceEvent(client, config, actor, { resourceId: id, tool: MOVE_AUDIT_TOOL, parameters: { reference: `mcp:resource:${id}`, ...move } }, now);
      }
      const edited = {
        ...(displayName !== undefined ? { display_name: displayName } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(searchSetting !== undefined ? { search_setting: searchSetting } : {}),
      };
      if (Object.keys(edited).length > 0) await recordEvent(client, id, 'updated', actor, { fields: Object.keys(edited) }, now);
      await recordWriter(client, actor, id, false, now);
      changed('updated', next, current);
      return next;
    });
    return toView(row, actor);
  }

  async function replaceContent(actor: ResourceActor, id: string, input: ReplaceInput): Promise<ResourceView> {
    let current: ResourceRow;
    let contentType: string;
    let details: ReturnType<typeof replaceDetails>;
    try {
      details = replaceDetails(input);
      current = await visibleRow(actor, id);
      checkChange(actor, current);
      // The file name is kept whatever the upload was called; the type follows the new bytes.
      contentType = contentTypeFor(current.file_name, details.declaredType, current.content_type);
      executableTypeOrThrow(current.file_name, contentType, details.declaredType);
    } catch (err) {
      discard(input.body);
      throw err;
    }
    const versionKey = `${id}/${uuidv7()}`;
    const object: StoredObject = { bucket: await bucket(), key: details.objectName === undefined ? versionKey : `${versionKey}/${details.objectName}` };
    const stored = await (async () => {
      try {
        return await storeUpload(object, input.body, current.file_name, contentType);
      } catch (err) {
        discard(input.body);
        throw err;
      }
    })();
    return commitHead(
      actor,
      id,
      object,
      { size: stored.size, contentType, sha256: stored.sha256, changeSummary: details.changeSummary, restoredFrom: null, origin: input.origin, eventKind: 'replaced' },
      input.if_head,
    );
  }

  /**
   * Records an already-stored object as the resource's new head: under the row lock (the resource
   * may have been deleted or lost to the caller meanwhile, or, with `ifHead`, have a newer head), prune, publish the change. If anything
   * fails, the object is removed so no bytes are left without a version row.
   */
  async function commitHead(
    actor: ResourceActor,
    id: string,
    object: StoredObject,
    v: Omit<VersionContent, 'now' | 'object'> & { eventKind: string },
    ifHead?: number,
  ): Promise<ResourceView> {
    try {
      const result = await changeTransaction(async (client, changed) => {
        const locked = await rowById(client, id, true);
        if (!locked) throw notFound();
        checkChange(actor, locked);
        if (ifHead !== undefined && locked.head_version !== ifHead) {
          throw new ResourceError('conflict', `the file changed meanwhile: its head is version ${locked.head_version}, not ${ifHead}`, { head_version: locked.head_version });
        }
        const appended = await appendVersion(client, actor, locked, { ...v, object, now: clock() });
        changed('replaced', appended.row);
        return appended;
      });
      await removeObjects(result.pruned);
      return toView(result.row, actor);
    } catch (err) {
      await removeObjects([object]);
      throw err;
    }
  }

  async function restore(actor: ResourceActor, id: string, version: number): Promise<ResourceView> {
    if (!Number.isInteger(version) || version < 1) throw new ResourceError('invalid', 'version must be a positive integer');
    const current = await visibleRow(actor, id);
    checkChange(actor, current);
    const source = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 AND version = $2`, [id, version]);
    const from = source.rows[0];
    if (!from) throw new ResourceError('not_found', `version ${version} of this resource does not exist (it may have been pruned)`);
    // A copy, not a shared object: pruning the source version later must not take these bytes.
    const object: StoredObject = { bucket: await bucket(), key: `${id}/${uuidv7()}` };
    try {
      await objects().store.copyObject({ bucket: from.object_bucket, key: from.object_key }, object);
    } catch (err) {
      if (isObjstoreError(err, 'NoSuchKey')) throw new ResourceError('not_found', `version ${version} of this resource has no stored content`);
      throw err;
    }
    return commitHead(actor, id, object, {
      size: Number(from.size),
      contentType: from.content_type,
      sha256: from.content_sha256,
      changeSummary: `restored from version ${version}`,
      restoredFrom: version,
      origin: actorOrigin(actor),
      eventKind: 'restored',
    });
  }

  async function remove(actor: ResourceActor, id: string, opts: DeleteOptions): Promise<void> {
    const current = await visibleRow(actor, id);
    checkChange(actor, current);
    const counts = await countReferences(id);
    const referenced = holdsDelete(counts);
    if (holdsDelete(countsHoldingDelete(counts, opts.origin)) && !opts.force) {
      throw new ResourceError(
        'conflict',
        `"${current.file_name}" is used by ${plural(counts.assets, 'asset', 'assets')}, ${plural(counts.prompts, 'prompt', 'prompts')} and ${plural(counts.tables, 'registered table', 'registered tables')}; delete with force to delete it anyway`,
        { references: counts },
      );
    }
    const objs = await changeTransaction(async (client, changed) => {
      const locked = await rowById(client, id, true);
      if (!locked) throw notFound();
      checkChange(actor, locked);
      // Read under the lock: a replace that committed first has its version (and object) here.
      const versions = await client.query<{ object_bucket: string; object_key: string }>(
        `SELECT object_bucket, object_key FROM resource_versions WHERE resource_id = $1
         UNION ALL SELECT $2, unnest(tile_objects) FROM resource_thumbnails WHERE resource_id = $1`,
        [id, await bucket()],
      );
      await client.query(`DELETE FROM resources WHERE id = $1`, [id]);
      await recordEvent(client, id, 'deleted', actor, { uri: rowUri(locked), force: opts.force, ...(opts.origin ? { origin: opts.origin } : {}), references: counts }, clock());
      changed('deleted', locked);
      return versions.rows.map((v) => ({ bucket: v.object_bucket, key: v.object_key }));
    });
    await removeObjects(objs);
    if (referenced) {
      for (const r of references) {
        try {
          await r.released?.(id);
        } catch (err) {
          log.warn({ err: { message: (err as Error).message }, resourceId: id }, 'reference counter could not release a deleted resource');
        }
      }
    }
  }

  return { create, update, replaceContent, delete: remove, restore };
}

function conflictAt(row: ResourceRow): ResourceError {
  const at = formatLibraryPath(rowLibrary(row), row.folder_path);
  return new ResourceError('conflict', `a file named "${row.file_name}" already exists in ${at} (${rowUri(row)})`, {
    existing: { id: row.id, uri: rowUri(row), file_name: row.file_name },
  });
}

/** Drains a body the service will not read, so the caller's stream (an HTTP upload) completes. */
function discard(body: Readable): void {
  if (!body.destroyed && !body.readableEnded) body.resume();
}

function contentTypeFor(fileName: string, declared: string | undefined, fallback?: string): string {
  const d = declared?.trim();
  if (d && d.toLowerCase() !== 'application/octet-stream') return d;
  return contentTypeFromName(fileName) ?? fallback ?? chooseContentType(fileName, declared);
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}
