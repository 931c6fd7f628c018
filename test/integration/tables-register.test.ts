/**
 * Table registration (spec document 2, "Table registration" state table, the register authority
 * row and errors; issue 20) on both engines: the real Trino (Hive scratch catalog over MinIO) and
 * the embedded DuckDB. Every row of the state table, the refusal naming rows and columns, the
 * correction of a Latin-1 file with embedded newlines and CR-only line ends, the correction repeated
 * on a broken upload, follow on an export and an extraction, pruning keeping a pinned revision,
 * delete refusal and force, moves keeping the registration, and another user's file refused.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../shared/db/index.js';
import { readAll } from '../../shared/objstore/index.js';
import { exportIntoResource, extractArchive, manageResourceTool, ResourceError, type ResourceService, type ResourceView } from '../../shared/resources/index.js';
import { afterUpload, followNewVersion, listTables, manageTableTool, registeredTables, registerTable, TableError, tableHooks, unregisterTable } from '../../shared/tables/index.js';
import { writeZip } from '../support/archives.js';
import { callTool } from '../support/sql-tools.js';
import { sales, startTablesEnv, type TablesEnv } from './tables-fixtures.js';

const clean = 'id,name,city\n1,Ada,Paris\n2,Bob,Oslo\n';
/** Latin-1, with line breaks inside quoted cells and carriage-return-only line ends. */
const latin1Broken = Buffer.from('id,name,note\r1,Jos\xe9,"first\r\nsecond"\r2,Ren\xe9e,"a\nb"\r3,Zo\xeb,plain\r', 'latin1');
const broken = 'id,name,note\n1,Ada,"two\nlines"\n2,Bob,fine\n';

async function refusal(work: Promise<unknown>): Promise<TableError | ResourceError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TableError || error instanceof ResourceError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

async function versionBytes(env: TablesEnv, id: string, version: number): Promise<Buffer> {
  const res = await env.deps.db.query<{ object_bucket: string; object_key: string }>(`SELECT object_bucket, object_key FROM resource_versions WHERE resource_id = $1 AND version = $2`, [id, version]);
  const row = res.rows[0]!;
  return (await readAll((await env.rig.storage.connection.store.getObject(row.object_bucket, row.object_key)).body, 1 << 20)).bytes;
}

const names = (rows: Array<Record<string, unknown>>) => rows.map((r) => String(r['name']));

describe.each(['duckdb', 'trino'] as const)('table registration on %s', (engine) => {
  let env: TablesEnv;
  const register = (file: ResourceView, extra: { table_name?: string; follow?: boolean; correct?: boolean } = {}, actor = env.salesAdmin) =>
    registerTable(env.deps, actor, { reference: file.reference, connection: env.connection, ...extra });

  beforeAll(async () => {
    env = await startTablesEnv(engine, { maxVersions: 3 });
  }, 240_000);
  afterAll(async () => {
    await env?.stop();
  });

  it('a scratch catalog that cannot take the table answers unavailable (DuckDB over S3 storage), not an error to retry', async () => {
    if (engine !== 'duckdb') return;
    const { resource } = await env.upload(env.salesAdmin, sales, 'over-s3.csv', clean);
    const s3 = { ...env.deps.storage, connection: { ...env.deps.storage.connection, driver: 's3', root: undefined } } as typeof env.deps.storage;
    const refused = registerTable({ ...env.deps, storage: s3 }, env.salesAdmin, { reference: resource.reference, connection: env.connection });
    await expect(refused).rejects.toBeInstanceOf(TableError);
    await expect(refused).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('filesystem driver') });
  });

  it('unregistered → register: registered at the current revision, the persona as prefix', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'Orders 2026.csv', clean);
    const result = await register(resource);
    expect(result.table).toMatchObject({ table: 'sales_orders_2026', version: 1, follow: true, pinned: false, corrects: false });
    expect(result.change).toBe('checked and registered at version 1');
    expect(names(await env.rows('sales_orders_2026'))).toEqual(['Ada', 'Bob']);
    const personal = await env.upload(env.salesMember, { kind: 'person', subject: 'sam' }, 'mine.csv', clean);
    const mine = await register(personal.resource, { table_name: 'My Table' }, { ...env.salesMember, activePersona: 'sales' });
    expect(mine.table.table).toBe('sales_my_table');
    const global = await env.upload(env.admin, { kind: 'global' }, 'cities.tsv', 'city\tcountry\nParis\tFR\n');
    expect((await register(global.resource, {}, env.admin)).table.table).toBe('global_cities');
    expect(await env.rows('global_cities')).toEqual([{ city: 'Paris', country: 'FR' }]);
  });

  it('attaches a registered file\'s tables to it for search, and none to a file without', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'attached.csv', clean);
    const bare = await env.upload(env.salesAdmin, sales, 'bare.csv', clean);
    await register(resource, { table_name: 'attached one' });
    await register(resource, { table_name: 'attached two' });
    const attached = await registeredTables(env.deps.db)([resource.id, bare.resource.id]);
    expect([...attached]).toEqual([[resource.id, [{ connection: env.connection, table: 'sales_attached_one' }, { connection: env.connection, table: 'sales_attached_two' }]]]);
  });

  it('unregistered → register over embedded line breaks or CR-only line ends: refused with row count and columns; nothing registered', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'notes.csv', 'id,note,city\n1,"a\nb",x\n2,ok,"c\nd"\n3,"e\nf",y\n');
    const error = await refusal(register(resource));
    expect(error.message).toMatch(/^"notes.csv" \(version 1\) cannot be registered as a table: 2 rows have a line break inside a cell \(columns note, city\)|3 rows have a line break/);
    expect(error.message).toContain('3 rows have a line break inside a cell (columns note, city)');
    expect((error as TableError).details).toMatchObject({ rows: 3, columns: ['note', 'city'] });
    const cr = await env.upload(env.salesAdmin, sales, 'mac.csv', 'a,b\r1,2\r3,4\r');
    expect((await refusal(register(cr.resource))).message).toContain('3 lines end in a carriage return only');
    expect((await listTables(env.deps, env.salesAdmin, { reference: resource.reference })).items).toEqual([]);
  });

  it('register with correction: a Latin-1 file with embedded newlines and CR-only line ends becomes a clean UTF-8 version, registered and flagged Corrects the file', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'people.csv', latin1Broken);
    const result = await register(resource, { correct: true });
    expect(result.corrected?.version).toBe(2);
    expect(result.table).toMatchObject({ version: 2, corrects: true });
    const bytes = await versionBytes(env, resource.id, 2);
    expect(bytes.toString('utf8')).toBe('id,name,note\n1,José,first second\n2,Renée,a b\n3,Zoë,plain\n');
    const versions = await env.service.versions(env.salesAdmin, resource.id);
    expect(versions.find((v) => v.version === 2)?.change_summary).toMatch(/^table-registration correction of version 1: 2 rows have a line break inside a cell \(column note\); 4 lines end in a carriage return only; 3 bytes are not UTF-8/);
    expect((await env.rows('sales_people', 'id')).map((r) => [String(r['name']), String(r['note'])])).toEqual([
      ['José', 'first second'],
      ['Renée', 'a b'],
      ['Zoë', 'plain'],
    ]);
  });

  it('registered (corrects) → a new revision with the same problem: the correction repeated above the upload, both versions reported; again without correction turns it off', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'feed.csv', broken);
    await register(resource, { correct: true });
    const upload = await env.upload(env.salesAdmin, sales, 'feed.csv', 'id,name,note\n1,Cy,"x\ny"\n');
    expect(upload.resource.version).toBe(3);
    const news = await afterUpload(env.deps, env.salesAdmin, resource.id);
    expect(news.corrected?.version).toBe(4);
    expect(news.table_changes).toEqual([{ table: 'sales_feed', change: 'corrected version 3 (1 row has a line break inside a cell (column note)) into version 4; moved from version 2 to version 4' }]);
    expect(await env.rows('sales_feed')).toMatchObject([{ name: 'Cy', note: 'x y' }]);
    const again = await register(resource);
    expect(again.table).toMatchObject({ version: 4, corrects: false });
    expect(again.change).toContain('correction turned off');
  });

  it('registered (not corrected) → a new revision uploaded: stays at the old revision and says so; registering again moves it', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'pinned.csv', clean);
    await register(resource, { follow: false });
    await env.upload(env.salesAdmin, sales, 'pinned.csv', 'id,name,city\n3,Cy,Rome\n');
    expect((await afterUpload(env.deps, env.salesAdmin, resource.id)).table_changes).toEqual([]);
    const [view] = (await listTables(env.deps, env.salesAdmin, { reference: resource.reference })).items;
    expect(view).toMatchObject({ version: 1, pinned: true, state: 'pinned at version 1; the file is at version 2: register again to move it' });
    // The file's own view says so too (manage_resource read carries it).
    expect(await tableHooks(env.deps).tablesOf(env.salesMember, resource.id)).toEqual([
      { table: 'sales_pinned', connection: env.connection, version: 1, state: 'pinned at version 1; the file is at version 2: register again to move it' },
    ]);
    expect(names(await env.rows('sales_pinned'))).toEqual(['Ada', 'Bob']);
    expect((await register(resource, { follow: false })).table.version).toBe(2);
    expect(names(await env.rows('sales_pinned'))).toEqual(['Cy']);
  });

  it('a pass over the file puts back a table dropped by hand at its version; one it cannot restore is reported', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'restored.csv', clean);
    await register(resource, { follow: false });
    await env.rig.scratch.dropView('sales_restored');
    await expect(env.rows('sales_restored')).rejects.toThrow();
    await env.upload(env.salesAdmin, sales, 'restored.csv', `${clean}3,Cy,Rome\n`);
    expect((await afterUpload(env.deps, env.salesAdmin, resource.id)).table_changes).toEqual([]);
    expect(names(await env.rows('sales_restored'))).toEqual(['Ada', 'Bob']);
    if (engine !== 'duckdb') return;
    // DuckDB's view reads the version's file itself: without it, the table cannot be written again.
    const res = await env.deps.db.query<{ object_bucket: string; object_key: string }>(`SELECT object_bucket, object_key FROM resource_versions WHERE resource_id = $1 AND version = 1`, [resource.id]);
    await env.rig.storage.connection.store.deleteObject(res.rows[0]!.object_bucket, res.rows[0]!.object_key);
    const news = await afterUpload(env.deps, env.salesAdmin, resource.id);
    expect(news.table_changes).toEqual([{ table: 'sales_restored', change: expect.stringMatching(/^stays at version 1, but its table could not be restored on connection local: /) }]);
  });

  it('registered (follow on) → a new version from an export: registered at it, reported as table_changes; a pinned table stays', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'export.csv', clean);
    await register(resource, { table_name: 'followed' });
    await register(resource, { table_name: 'kept', follow: false });
    const exported = await exportIntoResource(
      env.service,
      env.salesAdmin,
      { library: sales, path: 'data', file_name: 'export.csv' },
      { status: 200, body: Readable.toWeb(Readable.from([Buffer.from('id,name,city\n9,Zed,Lima\n')])) as ReadableStream<Uint8Array>, name: 'test upstream' },
      'export',
    );
    const changes = await followNewVersion(env.deps, resource.id, exported.resource.version);
    expect(changes).toEqual([{ table: 'sales_followed', change: 'moved from version 1 to version 2' }]);
    expect(names(await env.rows('sales_followed'))).toEqual(['Zed']);
    expect(names(await env.rows('sales_kept'))).toEqual(['Ada', 'Bob']);
  });

  it('a follow-up that fails inline never fails the write: it is handed to registerTable through the outbox', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'fragile.csv', clean);
    await register(resource);
    // The connection disappears from the configuration (as if removed): the engine cannot be reached now.
    await env.deps.db.query(`UPDATE resource_tables SET connection = 'gone' WHERE resource_id = $1`, [resource.id]);
    const next = await env.upload(env.salesAdmin, sales, 'fragile.csv', 'id,name,city\n4,Dee,Bern\n');
    const changes = await followNewVersion(env.deps, resource.id, next.resource.version);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.change).toMatch(new RegExp(`^not moved yet \\(unknown connection "gone"; .*\\); workflow table:${resource.id} retries$`));
    expect((await env.deps.db.query(`SELECT kind, params->>'mode' AS mode FROM resource_jobs WHERE workflow_id = $1`, [`table:${resource.id}`])).rows).toEqual([{ kind: 'table', mode: 'follow' }]);
    await env.deps.db.query(`DELETE FROM resource_jobs WHERE workflow_id = $1`, [`table:${resource.id}`]);
  });

  it('pruning by max_versions never deletes the revision a table is registered at', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'history.csv', clean);
    await register(resource, { follow: false });
    for (const n of [2, 3, 4, 5]) await env.upload(env.salesAdmin, sales, 'history.csv', `id,name,city\n${n},V${n},X\n`);
    const versions = (await env.service.versions(env.salesAdmin, resource.id)).map((v) => v.version).sort();
    expect(versions).toEqual([1, 3, 4, 5]);
    expect(names(await env.rows('sales_history'))).toEqual(['Ada', 'Bob']);
  });

  it('delete: refused counting the registered tables; force drops them; a move keeps the registration', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'doomed.csv', clean);
    await register(resource);
    await register(resource, { table_name: 'doomed_too' });
    const moved = await env.service.update(env.salesAdmin, resource.id, { path: 'archive' });
    expect(moved.path).toBe('archive');
    expect((await listTables(env.deps, env.salesAdmin, { reference: resource.reference })).items).toHaveLength(2);
    expect(names(await env.rows('sales_doomed'))).toEqual(['Ada', 'Bob']);
    const error = await refusal(env.service.delete(env.salesAdmin, resource.id, { force: false }));
    expect(error.message).toBe('"doomed.csv" is used by 0 assets, 0 prompts and 2 registered tables; delete with force to delete it anyway');
    await env.service.delete(env.salesAdmin, resource.id, { force: true });
    await expect(env.rows('sales_doomed')).rejects.toThrow();
    expect((await env.deps.db.query(`SELECT 1 FROM resource_tables WHERE resource_id = $1`, [resource.id])).rowCount).toBe(0);
  });

  it('authority: another user’s file is refused; a member who did not upload is refused; the uploader may unregister', async () => {
    const theirs = await env.upload(env.actor('ann'), { kind: 'person', subject: 'ann' }, 'private.csv', clean);
    expect((await refusal(register(theirs.resource, {}, env.salesMember))).code).toBe('not_found');
    // A platform administrator may (its active persona is the prefix); the table is listed only to those who may open the file.
    expect((await register(theirs.resource, { table_name: 'ann_private' }, env.admin)).table.table).toBe('admin_ann_private');
    expect((await listTables(env.deps, env.salesMember, { limit: 1000 })).items.map((t) => t.table)).not.toContain('admin_ann_private');
    expect((await listTables(env.deps, env.actor('ann'), { limit: 1000 })).items.map((t) => t.table)).toContain('admin_ann_private');
    const persona = await env.upload(env.salesAdmin, sales, 'team.csv', clean);
    const error = await refusal(register(persona.resource, {}, env.salesMember));
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain('its uploader, an administrator, or an administrator of its library');
    await register(persona.resource);
    await expect(unregisterTable(env.deps, env.salesMember, { connection: env.connection, table_name: 'sales_team' })).rejects.toThrow(/cannot register/);
    await unregisterTable(env.deps, env.salesAdmin, { connection: env.connection, table_name: 'sales_team' });
    await expect(env.rows('sales_team')).rejects.toThrow();
  });

  it('a name taken by another file on the connection is refused', async () => {
    const a = await env.upload(env.salesAdmin, sales, 'dup.csv', clean);
    await register(a.resource, { table_name: 'dup' });
    const b = await env.upload(env.salesAdmin, sales, 'dup2.csv', clean);
    expect((await refusal(register(b.resource, { table_name: 'dup' }))).code).toBe('conflict');
  });

  it('two files registering the same table name at once (two processes): one is registered, the other refused naming the file that holds it; the view and the row agree', async () => {
    const a = await env.upload(env.salesAdmin, sales, 'race-a.csv', clean);
    const b = await env.upload(env.salesAdmin, sales, 'race-b.csv', 'id,name,city\n7,Eve,Kyiv\n');
    // A second platform process (its own pool): B's wait for the name is seen through its lock's onWait.
    const other = createPool({ dsn: env.dsn, maxOpenConns: 2 });
    let bWaits!: () => void;
    const bWaiting = new Promise<void>((resolve) => (bWaits = resolve));
    const depsB = { ...env.deps, db: other, locks: { leaseMs: 60_000, renewEveryMs: 20_000, wait: { initialMs: 5, maxMs: 50 }, onWait: () => bWaits() } };
    // A, inside its registration (holding the name), starts B and goes on only once B waits for the name (or is done).
    const registerB = () => registerTable(depsB, env.salesAdmin, { reference: b.resource.reference, connection: env.connection, table_name: 'raced' });
    let second: Promise<unknown> | undefined;
    const paused: ResourceService = {
      ...env.service,
      async get(actor, id) {
        if (id === a.resource.id && !second) {
          second = registerB().catch((e: unknown) => e);
          await Promise.race([bWaiting, second]);
        }
        return env.service.get(actor, id);
      },
    };
    try {
      const firstResult = await registerTable({ ...env.deps, resources: paused }, env.salesAdmin, { reference: a.resource.reference, connection: env.connection, table_name: 'raced' });
      expect(firstResult.table.table).toBe('sales_raced');
      const refused = await second;
      expect(refused).toBeInstanceOf(TableError);
      expect((refused as TableError).code).toBe('conflict');
      expect((refused as TableError).message).toBe(`table sales_raced on connection ${env.connection} is already registered over "race-a.csv" (${a.resource.reference}): choose another table_name`);
    } finally {
      await other.end();
    }
    expect(names(await env.rows('sales_raced'))).toEqual(['Ada', 'Bob']);
    expect((await env.deps.db.query(`SELECT resource_id FROM resource_tables WHERE table_name = 'sales_raced'`)).rows).toEqual([{ resource_id: a.resource.id }]);
    // A file the caller cannot open is not named.
    const theirs = await env.upload(env.actor('ann'), { kind: 'person', subject: 'ann' }, 'secret.csv', clean);
    await register(theirs.resource, { table_name: 'sales_hidden' }, { ...env.admin, activePersona: 'sales' });
    const hidden = await refusal(register(b.resource, { table_name: 'hidden' }));
    expect(hidden.message).toBe(`table sales_hidden on connection ${env.connection} is already registered over another file, one you cannot open: choose another table_name`);
  });

  it('manage_table list is paged: at most limit registrations per call, next_cursor until the end; a forged cursor and a limit above 1000 are refused', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'paged.csv', clean);
    for (const name of ['p1', 'p2', 'p3']) await register(resource, { table_name: name, follow: false });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listTables(env.deps, env.salesAdmin, { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((t) => `${t.connection}.${t.table}`));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    const all = (await env.deps.db.query<{ t: string }>(`SELECT connection || '.' || table_name AS t FROM resource_tables ORDER BY connection, table_name`)).rows.map((r) => r.t);
    const readable = (await listTables(env.deps, env.salesAdmin, { limit: 1000 })).items.map((t) => `${t.connection}.${t.table}`);
    expect(seen).toEqual(readable);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(all.length / 2));
    expect(seen).toEqual(expect.arrayContaining([`${env.connection}.sales_p1`, `${env.connection}.sales_p2`, `${env.connection}.sales_p3`]));
    const tool = [manageTableTool(env.deps, { config: env.rig.config, actorOf: () => env.salesAdmin })];
    const one = await callTool(tool, 'manage_table', { action: 'list', reference: resource.reference, limit: 1 });
    expect(one.structuredContent).toMatchObject({ tables: [{ table: 'sales_p1' }], next_cursor: expect.any(String) });
    const next = await callTool(tool, 'manage_table', { action: 'list', reference: resource.reference, limit: 2, cursor: (one.structuredContent as { next_cursor: string }).next_cursor });
    expect(next.structuredContent).toMatchObject({ tables: [{ table: 'sales_p2' }, { table: 'sales_p3' }], next_cursor: null });
    expect((await refusal(listTables(env.deps, env.salesAdmin, { cursor: Buffer.from('["x"]').toString('base64url') }))).message).toBe('cursor is not one a manage_table list answered');
    expect((await refusal(listTables(env.deps, env.salesAdmin, { limit: 1001 }))).code).toBe('invalid');
  });

  it('NDJSON files register as tables', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'events.ndjson', '{"id":1,"name":"Ada"}\n{"id":2,"name":"Bob"}\n');
    await register(resource);
    expect(names(await env.rows('sales_events', 'name'))).toEqual(['Ada', 'Bob']);
  });

  it('registered (follow on) → a new version from an extraction: registered at it, reported as the member\'s table_changes', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'feed-x.csv', clean);
    await register(resource);
    const dir = await mkdtemp(join(tmpdir(), 'tables-zip-'));
    try {
      await writeZip(join(dir, 'a.zip'), [{ name: 'feed-x.csv', data: 'id,name,city\n7,Eve,Kyiv\n' }]);
      const archive = await env.upload(env.salesAdmin, sales, 'bundle.zip', await readFile(join(dir, 'a.zip')));
      const result = await extractArchive(
        { service: env.service, store: env.rig.storage.connection.store, maxUploadBytes: env.rig.config.resources.managed.max_upload_bytes, tables: tableHooks(env.deps) },
        env.salesAdmin,
        { resourceId: archive.resource.id, destination: 'beside', origin: 'agent' },
      );
      expect(result.members).toMatchObject([{ member: 'feed-x.csv', outcome: 'revised', version: 2, table_changes: [{ table: 'sales_feed_x', change: 'moved from version 1 to version 2' }] }]);
      expect(names(await env.rows('sales_feed_x'))).toEqual(['Eve']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the upload reply (manage_resource) reports both versions when the correction is repeated; manage_table answers refusals as tool errors with rows and columns', async () => {
    const tables = [manageTableTool(env.deps, { config: env.rig.config, actorOf: () => env.salesAdmin }), manageResourceTool(env.service, { config: env.rig.config, actorOf: () => env.salesAdmin, tables: tableHooks(env.deps) })];
    const created = await callTool(tables, 'manage_resource', { action: 'create', library: 'persona:sales', path: 'data', filename: 'tool.csv', content: broken });
    const reference = (created.structuredContent as { resource: ResourceView }).resource.reference;
    const refused = await callTool(tables, 'manage_table', { action: 'register', reference, connection: env.connection });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'refused', rows: 1, columns: ['note'] });
    const registered = await callTool(tables, 'manage_table', { action: 'register', reference, connection: env.connection, correct: true, follow: false });
    expect(registered.structuredContent).toMatchObject({ table: { table: 'sales_tool', version: 2, corrects: true, pinned: true }, corrected: { version: 2 } });
    const upload = await callTool(tables, 'manage_resource', { action: 'create', library: 'persona:sales', path: 'data', filename: 'tool.csv', content: 'id,name,note\n5,Di,"p\nq"\n', if_exists: 'replace' });
    expect(upload.structuredContent).toMatchObject({ outcome: 'revised', resource: { version: 3 }, tables: { corrected: { version: 4, reference } } });
    const listed = await callTool(tables, 'manage_table', { action: 'list', reference });
    expect((listed.structuredContent as { tables: unknown[] }).tables).toMatchObject([{ table: 'sales_tool', version: 4, corrects: true, pinned: true, state: 'at version 4, correcting new uploads' }]);
    const read = await callTool(tables, 'manage_resource', { action: 'read', reference });
    expect(read.structuredContent).toMatchObject({ tables: [{ table: 'sales_tool', version: 4, state: 'at version 4, correcting new uploads' }], resource: { version: 4 } });
  });
});
