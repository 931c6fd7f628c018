import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptPrincipal } from '../../shared/scripts/index.js';
import { startRunsRig, type Json, type RunsRig } from './scripts-runs-fixtures.js';

/**
 * Issue 16 item 3, on both storage drivers: `platform.export` to resources (spec document 2,
 * "Agent tools", export paragraph) — the first call creates the file, a later one records its
 * next version, an upstream error answer or one that breaks off mid-body leaves the file at its
 * last version, the writer records show the script — and `platform.publish_data`; both refused
 * inside a handler (a run whose entry is handle), also through platform.call.
 */
describe.each(['filesystem', 's3'] as const)('platform.export and platform.publish_data (%s)', (driver) => {
  let rig: RunsRig;
  beforeAll(async () => {
    rig = await startRunsRig(driver);
  }, 60_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const upstream = (path: string) => `http://127.0.0.1:${rig.httpPort}${path}`;

  async function saveAndRun(name: string, source: string): Promise<{ id: string; body: Json }> {
    const created = await rig.rest('alice', 'POST', '/', { name, source });
    expect(created.status).toBe(201);
    const run = await rig.rest('alice', 'POST', `/${created.body.script.id}/run`);
    return { id: created.body.script.id, body: run.body };
  }

  async function versions(resourceId: string): Promise<{ version: number; size: string; change_summary: string }[]> {
    return (await rig.db.query('SELECT version, size::text, change_summary FROM resource_versions WHERE resource_id = $1 ORDER BY version', [resourceId])).rows;
  }

  it('creates the file on the first export, records version 2 on the second, and keeps it there when the upstream answers 500 or breaks off', async () => {
    const { id, body } = await saveAndRun(
      'exporter',
      `const to = { destination: 'resources', path: 'exports', filename: 'daily.csv' };
      async function attempt(url) {
        try { return await platform.export(to, { url }); } catch (e) { return { error: String(e.message ?? e) }; }
      }
      export async function main() {
        const first = await platform.export(to, { url: '${upstream('/export/first')}' });
        const second = await platform.export(to, { url: '${upstream('/export/second')}' });
        const failed = await attempt('${upstream('/export-fail')}');
        const broken = await attempt('${upstream('/export-broken')}');
        const read = await platform.read_resource(second.resource.reference);
        return { first, second, failed, broken, content: read.content };
      }`,
    );
    expect(body.status).toBe('ok');
    const { first, second, failed, broken, content } = body.result;
    expect(first).toMatchObject({ outcome: 'created', upstream_status: 200, resource: { version: 1, file_name: 'daily.csv', content_type: 'text/csv' } });
    expect(second).toMatchObject({ outcome: 'revised', resource: { id: first.resource.id, version: 2 } });
    expect(second.resource.reference).toMatch(/^mcp:resource:/);
    expect(failed.error).toMatch(/answered 500.*nothing was exported, and exports\/daily\.csv keeps its last version/);
    expect(broken.error).toMatch(/failed while sending.*exports\/daily\.csv keeps its last version/);
    expect(content).toBe('n,text\n1,second\n');
    expect((await versions(first.resource.id)).map((v) => v.version)).toEqual([1, 2]);
    const writers = await rig.db.query('SELECT writer_kind, writer_id FROM resource_writers WHERE resource_id = $1', [first.resource.id]);
    expect(writers.rows).toEqual([{ writer_kind: 'script', writer_id: id }]);
    // Each export is one tool call on the run's session, audited under the script.
    const audited = async () => (await rig.db.query(`SELECT outcome FROM audit_log WHERE tool = 'platform_export' AND subject = 'script:exporter' ORDER BY occurred_at, id`)).rows.map((r) => r.outcome);
    await expect.poll(audited, { timeout: 10_000 }).toHaveLength(4);
    expect((await audited()).slice(0, 2)).toEqual(['ok', 'ok']);
    expect((await audited()).slice(2)).not.toContain('ok');
  });

  it('refuses an upstream host not on scripts.fetch.allow_hosts, storing nothing', async () => {
    const { body } = await saveAndRun(
      'exporter-elsewhere',
      `export async function main() {
        try { await platform.export({ destination: 'resources', path: 'exports', filename: 'x.csv' }, { url: 'http://localhost:${rig.httpPort}/export/x' }); return 'exported'; }
        catch (e) { return String(e.message ?? e); }
      }`,
    );
    expect(body.result).toMatch(/the host localhost is not on scripts\.fetch\.allow_hosts/);
    expect((await rig.db.query(`SELECT count(*)::int AS n FROM resources WHERE file_name = 'x.csv'`)).rows[0].n).toBe(0);
  });

  it("refuses malformed calls and another person's library with the reason, storing nothing", async () => {
    const { body } = await saveAndRun(
      'bad-exporter',
      `async function attempt(f) { try { await f(); return 'stored'; } catch (e) { return String(e.message ?? e); } }
      const source = { url: '${upstream('/export/bad')}' };
      export async function main() {
        return {
          destination: await attempt(() => platform.export({ destination: 'elsewhere', path: 'bad', filename: 'b.csv' }, source)),
          filename: await attempt(() => platform.export({ destination: 'resources', path: 'bad' }, source)),
          otherPerson: await attempt(() => platform.export({ destination: 'resources', library: 'person:apikey:bob', path: 'bad', filename: 'b.csv' }, source)),
          badPath: await attempt(() => platform.export({ destination: 'resources', path: '../up', filename: 'b.csv' }, source)),
          rows: await attempt(() => platform.publish_data({ name: 'bad', path: 'bad' }, 'not rows')),
        };
      }`,
    );
    expect(body.status).toBe('ok');
    expect(body.result).toEqual({
      destination: expect.stringMatching(/platform\.export destination: .*destination must be 'resources'/),
      filename: expect.stringMatching(/Invalid arguments for platform_export: filename/),
      otherPerson: expect.stringMatching(/not allowed to add files to person:apikey:bob/),
      badPath: expect.stringMatching(/folder name "\.\." breaks the rule/),
      rows: expect.stringMatching(/platform\.publish_data rows: /),
    });
    expect((await rig.db.query(`SELECT count(*)::int AS n FROM resources WHERE file_name IN ('b.csv', 'bad.ndjson')`)).rows[0].n).toBe(0);
  });

  it('publishes rows as NDJSON, then as CSV with formula cells made inert, each call a new version of the same file', async () => {
    const { body } = await saveAndRun(
      'publisher',
      `export async function main() {
        const rows = [{ city: 'Oslo', n: 1 }, { city: '=HYPERLINK("x")', extra: { a: 1 } }];
        const one = await platform.publish_data({ name: 'cities', path: 'published' }, rows);
        const two = await platform.publish_data({ name: 'cities', path: 'published' }, [{ city: 'Bergen', n: 2 }]);
        const csv = await platform.publish_data({ name: 'cities', path: 'published', format: 'csv' }, rows);
        return {
          one, two, csv,
          ndjson: (await platform.read_resource(two.resource.reference)).content,
          csvText: (await platform.read_resource(csv.resource.reference)).content,
        };
      }`,
    );
    expect(body.status).toBe('ok');
    const { one, two, csv, ndjson, csvText } = body.result;
    expect(one).toMatchObject({ outcome: 'created', rows: 2, columns: ['city', 'n', 'extra'], resource: { file_name: 'cities.ndjson', version: 1 } });
    expect(two).toMatchObject({ outcome: 'revised', rows: 1, resource: { id: one.resource.id, version: 2 } });
    expect(ndjson).toBe('{"city":"Bergen","n":2}\n');
    expect(csv).toMatchObject({ outcome: 'created', resource: { file_name: 'cities.csv', content_type: 'text/csv' } });
    expect(csvText).toBe(`city,n,extra\nOslo,1,\n"'=HYPERLINK(""x"")",,"{""a"":1}"\n`);
  });

  it("refuses platform.export and platform.publish_data inside a handler, and platform.call cannot reach their tools there", async () => {
    const runner = rig.api.scriptRunner!;
    const created = await rig.rest('alice', 'POST', '/', { name: 'handler-writer', source: 'export async function handle(req) { return { status: 200, body: "x" }; }' });
    const principal = scriptPrincipal({ id: created.body.script.id, name: 'handler-writer' }, ['staff']);
    const source = `async function attempt(f) { try { await f(); return 'allowed'; } catch (e) { return String(e.message ?? e); } }
      export async function handle(req) {
        return {
          export: await attempt(() => platform.export({ destination: 'resources', path: 'h', filename: 'h.csv' }, { url: '${upstream('/export/h')}' })),
          publish: await attempt(() => platform.publish_data({ name: 'h', path: 'h' }, [{ a: 1 }])),
          viaCall: await attempt(() => platform.call('platform_export', { destination: 'resources', path: 'h', filename: 'h.csv', source: { url: '${upstream('/export/h')}' } })),
          write: await attempt(() => platform.write_resource({ path: 'h', file_name: 'allowed.txt', content: 'handlers may write' })),
        };
      }`;
    const outcome = await runner.execute({ source, principal, entry: 'handle', args: [{ method: 'GET' }], sessionId: 'endpoint-test', imports: 'current' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: {
        export: expect.stringMatching(/platform\.export is not available inside a handler/),
        publish: expect.stringMatching(/platform\.publish_data is not available inside a handler/),
        viaCall: expect.stringMatching(/Unknown tool: platform_export/),
        write: 'allowed',
      },
    });
    expect((await rig.db.query(`SELECT count(*)::int AS n FROM resources WHERE folder_path = 'h' AND file_name <> 'allowed.txt'`)).rows[0].n).toBe(0);
  });

  it("refuses the export tools to a script whose author's persona may not call manage_resource", async () => {
    const created = await rig.rest('lim', 'POST', '/', {
      name: 'limited-exporter',
      source: `export async function main() {
        try { await platform.export({ destination: 'resources', path: 'l', filename: 'l.csv' }, { url: '${upstream('/export/l')}' }); return 'exported'; }
        catch (e) { return String(e.message ?? e); }
      }`,
    });
    const run = await rig.rest('lim', 'POST', `/${created.body.script.id}/run`);
    expect(run.body.result).toMatch(/Unknown tool: platform_export/);
  });
});
