/**
 * manage_table's actions (spec document 2, "Table registration"; docs/resources.md): register a
 * file as a table (checked first; with `correct`, a corrected copy saved and registered, flagged
 * Corrects the file), unregister it, and list registrations with where each stands. Authority is
 * the resources' `register` row (uploader, administrator, administrator of the owning persona);
 * listing shows tables over files the caller may open.
 */
import { uuidv7 } from '../crypto/index.js';
import { sqlIdent } from '../sql/scratch/index.js';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT, parseLibrary, ResourceError, type ListPage, type ReferenceCounter, type ResourceActor, type ResourceView } from '../resources/index.js';
import { directoryOfVersion, engineOf, inlineLimit, scanVersion, withTableLock, writeCorrection, type TableDeps } from './deps.js';
import { handToWorkflow, tableWorkflowId } from './follow.js';
import { countRegistrations, deleteRegistration, registrationByName, registrationsOf, registrationsPage, saveRegistration, type Registration } from './records.js';
import { decodeListCursor, defaultTableName, encodeListCursor, passesChecks, prefixedTableName, problemsOf, refusalMessage, TableError, tableFormat, tablePrefix, type TableLibrary } from './rules.js';

export interface RegisterInput {
  reference: string;
  connection: string;
  table_name?: string;
  /** Follow new versions written by exports and extractions (default true). */
  follow?: boolean;
  /** Save a corrected copy and register it when the file fails the checks; the table then corrects the file. */
  correct?: boolean;
}

/** One registration as the caller sees it. */
export interface TableView {
  table: string;
  /** The fully qualified name to query. */
  relation: string;
  connection: string;
  resource: { reference: string; uri?: string; file_name?: string; head_version?: number };
  /** The version the table reads (null while its first correction runs). */
  version: number | null;
  follow: boolean;
  /** Pinned: stays at its version until registered again. */
  pinned: boolean;
  corrects: boolean;
  correcting: boolean;
  /** Where it stands, in words. */
  state: string;
  registered_by: string;
  registered_at: string;
}

export interface RegisterResult {
  table: TableView;
  /** What registering did (checked and registered, corrected into version n, handed to the workflow). */
  change: string;
  corrected?: { version: number; reference: string };
  workflow_id?: string;
}

export function libraryOf(view: ResourceView, actor: ResourceActor): TableLibrary {
  const library = parseLibrary(view.library, actor.subject);
  return library.kind === 'persona' ? { kind: 'persona', name: library.name } : library.kind === 'global' ? { kind: 'global' } : { kind: 'person' };
}

function stateOf(r: Registration, head: number | undefined): string {
  if (r.version === null) return `correcting the file in workflow ${tableWorkflowId(r.resource_id)}; registered when it is done`;
  const at = `at version ${r.version}`;
  const behind = head !== undefined && head > r.version;
  const correcting = r.correcting ? `; correcting version ${head ?? '?'} in workflow ${tableWorkflowId(r.resource_id)}` : '';
  if (head === undefined) return `${at}; the file was deleted`;
  if (r.follow) return `${at}, following new versions from exports and extractions${r.corrects ? ' and correcting new uploads' : ''}${behind ? ` (the file is at version ${head})` : ''}${correcting}`;
  if (r.corrects) return `${at}, correcting new uploads${correcting}`;
  return behind ? `pinned ${at}; the file is at version ${head}: register again to move it` : `pinned ${at} (the file's current version)`;
}

export function viewOf(r: Registration, resource?: ResourceView): TableView {
  return {
    table: r.table_name,
    relation: [r.catalog, r.schema_name, r.table_name].map(sqlIdent).join('.'),
    connection: r.connection,
    resource: resource
      ? { reference: resource.reference, uri: resource.uri, file_name: resource.file_name, head_version: resource.version }
      : { reference: `mcp:resource:${r.resource_id}` },
    version: r.version,
    follow: r.follow,
    pinned: !r.follow,
    corrects: r.corrects,
    correcting: r.correcting,
    state: stateOf(r, resource?.version),
    registered_by: r.registered_by,
    registered_at: r.registered_at.toISOString(),
  };
}

async function registrable(deps: TableDeps, actor: ResourceActor, reference: string): Promise<ResourceView> {
  const resource = await deps.resources.resolve(actor, reference);
  if (!resource.allowed_actions.register) {
    throw new TableError('forbidden', `you cannot register ${resource.reference} as a table: its uploader, an administrator, or an administrator of its library can`);
  }
  return resource;
}

export async function registerTable(deps: TableDeps, actor: ResourceActor, input: RegisterInput): Promise<RegisterResult> {
  const clock = deps.clock ?? (() => new Date());
  const resource = await registrable(deps, actor, input.reference);
  const format = tableFormat(resource.file_name, resource.content_type);
  if (!format) throw new TableError('invalid', `"${resource.file_name}" is not a CSV, TSV or NDJSON file (by its extension or type): only those can be registered as tables`);
  const engine = engineOf(deps, input.connection);
  const table = prefixedTableName(tablePrefix(libraryOf(resource, actor), actor.activePersona), input.table_name?.trim() || defaultTableName(resource.file_name));
  const follow = input.follow ?? true;
  // The name's lock too: two files registering one name are served one after the other, and the second is refused.
  return withTableLock(deps, resource.id, async () => {
    const existing = await registrationByName(deps.db, input.connection, table);
    if (existing && existing.resource_id !== resource.id) throw await nameTaken(deps, actor, existing);
    const head = (await deps.resources.get(actor, resource.id)).version;
    const found = await scanVersion(deps, resource.id, head, format);
    const now = clock();
    const base: Registration = {
      id: existing?.id ?? uuidv7(),
      resource_id: resource.id,
      connection: input.connection,
      catalog: engine.scratch.catalog,
      schema_name: engine.scratch.schema,
      table_name: table,
      format,
      version: existing?.version ?? null,
      relation: existing?.relation ?? null,
      follow,
      corrects: input.correct === true,
      correcting: false,
      registered_by: actor.subject,
      registered_at: now,
      updated_at: now,
    };
    let version = head;
    let corrected: RegisterResult['corrected'];
    let change = `checked and registered at version ${head}`;
    if (!passesChecks(found.report)) {
      if (!input.correct) {
        throw new TableError('refused', refusalMessage(resource.file_name, head, found.report), {
          rows: found.report.brokenRecords,
          columns: found.report.brokenColumns,
          cr_only_lines: found.report.crOnlyLines,
          invalid_utf8_bytes: found.report.invalidUtf8Bytes,
        });
      }
      if (found.object.size > inlineLimit(deps)) {
        await saveRegistration(deps.db, { ...base, correcting: true });
        const workflowId = await handToWorkflow(deps, actor, resource.id, 'upload', now);
        const saved = (await registrationByName(deps.db, input.connection, table))!;
        return { table: viewOf(saved, resource), change: `correcting version ${head} (${problemsOf(found.report).join('; ')}) in workflow ${workflowId}`, workflow_id: workflowId };
      }
      const view = await writeCorrection(deps, actor, resource, head, format, found);
      version = view.version;
      corrected = { version, reference: view.reference };
      change = `corrected version ${head} (${problemsOf(found.report).join('; ')}) into version ${version} and registered it`;
    }
    const location = await directoryOfVersion(deps, resource.id, version, format);
    const relation = await engine.register(table, { format, version, location, columns: found.report.columns });
    const saved: Registration = { ...base, version, relation };
    await saveRegistration(deps.db, saved);
    if (existing?.relation && existing.relation !== relation) await engine.dropRelation(table, existing.relation);
    if (existing?.corrects && !saved.corrects) change += '; correction turned off';
    return { table: viewOf(saved, await deps.resources.get(actor, resource.id)), change, ...(corrected ? { corrected } : {}) };
  }, { connection: input.connection, table });
}

/** The refusal of a name another file holds: naming that file when the caller may open it, never otherwise. */
async function nameTaken(deps: TableDeps, actor: ResourceActor, holder: Registration): Promise<TableError> {
  const file = await deps.resources.get(actor, holder.resource_id).catch(() => undefined);
  const which = file ? `"${file.file_name}" (${file.reference})` : 'another file, one you cannot open';
  return new TableError('conflict', `table ${holder.table_name} on connection ${holder.connection} is already registered over ${which}: choose another table_name`, {
    table: holder.table_name,
    ...(file ? { registered_over: file.reference } : {}),
  });
}

export interface UnregisterInput {
  connection: string;
  table_name: string;
}

/** Drops the table and its registration (the file and its versions stay). */
export async function unregisterTable(deps: TableDeps, actor: ResourceActor, input: UnregisterInput): Promise<TableView> {
  const table = input.table_name.trim();
  const notFound = () => new TableError('not_found', `no table ${table} is registered on connection ${input.connection}`);
  const found = await registrationByName(deps.db, input.connection, table);
  if (!found) throw notFound();
  // Under the file's and the name's locks (as registering), read again: the view and the row go together.
  return withTableLock(deps, found.resource_id, async () => {
    const registration = await registrationByName(deps.db, input.connection, table);
    if (!registration || registration.resource_id !== found.resource_id) throw notFound();
    return dropRegistration(deps, actor, registration);
  }, { connection: input.connection, table });
}

async function dropRegistration(deps: TableDeps, actor: ResourceActor, registration: Registration): Promise<TableView> {
  let resource: ResourceView | undefined;
  try {
    resource = await registrable(deps, actor, `mcp:resource:${registration.resource_id}`);
  } catch (error) {
    // A file deleted meanwhile: its registrant or a platform administrator may still remove the table.
    const gone = error instanceof ResourceError && error.code === 'not_found' && !(await fileExists(deps, registration.resource_id));
    if (!gone || (actor.subject !== registration.registered_by && !actor.platformAdmin)) throw error;
  }
  await engineOf(deps, registration.connection).drop(registration.table_name, registration.relation);
  await deleteRegistration(deps.db, registration.id);
  return viewOf(registration, resource);
}

export interface ListInput {
  reference?: string;
  connection?: string;
  /** Registrations read for this page (default DEFAULT_LIST_LIMIT, at most MAX_LIST_LIMIT). */
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: string;
}

/**
 * One page of the registrations over files the caller may open (one file's with `reference`),
 * optionally on one connection, in (connection, table) order. A page reads at most `limit`
 * registrations; those over files the caller may not open are left out, so a page may hold fewer
 * (even none) while `next_cursor` says more follow.
 */
export async function listTables(deps: TableDeps, actor: ResourceActor, input: ListInput): Promise<ListPage<TableView>> {
  const limit = input.limit ?? DEFAULT_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) throw new TableError('invalid', `limit must be an integer from 1 to ${MAX_LIST_LIMIT}`);
  const after = input.cursor ? decodeListCursor(input.cursor) : undefined;
  const only = input.reference?.trim() ? [(await deps.resources.resolve(actor, input.reference.trim())).id] : undefined;
  const rows = await registrationsPage(deps.db, {
    ...(only ? { resourceIds: only } : {}),
    ...(input.connection ? { connection: input.connection } : {}),
    ...(after ? { after } : {}),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const resources = new Map<string, ResourceView | null>();
  const items: TableView[] = [];
  for (const r of page) {
    if (!resources.has(r.resource_id)) resources.set(r.resource_id, await deps.resources.get(actor, r.resource_id).catch(() => null));
    const resource = resources.get(r.resource_id);
    if (resource) items.push(viewOf(r, resource));
  }
  const last = page.at(-1);
  return { items, next_cursor: rows.length > limit && last ? encodeListCursor({ connection: last.connection, table: last.table_name }) : null };
}

async function fileExists(deps: TableDeps, resourceId: string): Promise<boolean> {
  return (await deps.db.query(`SELECT 1 FROM resources WHERE id = $1`, [resourceId])).rowCount === 1;
}

/**
 * The delete rule's counter (spec document 2, Errors): a delete is refused while tables are
 * registered over the file; a forced delete drops them.
 */
export function tableReferences(deps: Pick<TableDeps, 'db' | 'sql' | 'storage'> & Partial<Pick<TableDeps, 'log' | 'locks'>>): ReferenceCounter {
  return {
    async count(resourceId) {
      return { tables: await countRegistrations(deps.db, resourceId) };
    },
    async released(resourceId) {
      // Under the file's lock: a follow-up under way finishes first, and cannot re-create a dropped view.
      await withTableLock(deps, resourceId, async () => {
        for (const r of await registrationsOf(deps.db, resourceId)) {
          await engineOf(deps, r.connection).drop(r.table_name, r.relation);
          await deleteRegistration(deps.db, r.id);
        }
      });
    },
  };
}
