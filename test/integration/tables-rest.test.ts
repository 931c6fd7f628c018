/**
 * The REST upload reply of a file registered as a table that corrects the file (spec document 2,
 * "Table registration": "correction repeated as a new version above the upload; upload reply
 * reports both"): POST /api/v1/resources revising the file and PUT …/content both answer the upload's
 * version and, under `tables`, the corrected copy above it. On the embedded DuckDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { unauthenticated } from '../../api/http/rest-auth.js';
import { resourceRoutes } from '../../api/resources/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { registerTable, tableHooks } from '../../shared/tables/index.js';
import { sales, startTablesEnv, type TablesEnv } from './tables-fixtures.js';

describe('upload replies of a corrected table (REST)', () => {
  let env: TablesEnv;
  let app: App;
  let url: string;

  beforeAll(async () => {
    env = await startTablesEnv('duckdb');
    app = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 1024 * 1024, version: 'test', serveMetrics: false });
    await app.register(resourceRoutes, {
      service: env.service,
      maxUploadBytes: 1024 * 1024,
      tables: tableHooks(env.deps),
      // Test-only identity: the sales administrator for any request naming a subject.
      async actorOf(request) {
        return request.headers['x-test-subject'] ? { ok: true, actor: env.salesAdmin } : unauthenticated();
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await env?.stop();
  });

  function form(fileName: string, content: string): FormData {
    const body = new FormData();
    body.set('library', 'persona:sales');
    body.set('path', 'data');
    body.set('if_exists', 'skip_unchanged');
    body.set('file', new Blob([content], { type: 'text/csv' }), fileName);
    return body;
  }

  it('a broken upload to a table that corrects the file answers both versions', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'rest.csv', 'id,note\n1,"a\nb"\n');
    await registerTable(env.deps, env.salesAdmin, { reference: resource.reference, connection: env.connection, correct: true });
    const revised = await fetch(`${url}/api/v1/resources`, { method: 'POST', headers: { 'x-test-subject': 'sally' }, body: form('rest.csv', 'id,note\n2,"c\nd"\n') });
    expect(revised.status).toBe(200);
    const reply = (await revised.json()) as { outcome: string; version: number; tables: { corrected: { version: number }; table_changes: Array<{ table: string; change: string }> } };
    expect(reply).toMatchObject({ outcome: 'revised', version: 3, tables: { corrected: { version: 4, reference: resource.reference } } });
    expect(reply.tables.table_changes).toEqual([{ table: 'sales_rest', change: 'corrected version 3 (1 row has a line break inside a cell (column note)) into version 4; moved from version 2 to version 4' }]);

    const replaced = await fetch(`${url}/api/v1/resources/${resource.id}/content`, { method: 'PUT', headers: { 'x-test-subject': 'sally', 'content-type': 'text/csv' }, body: 'id,note\n3,"e\rf"\n' });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ version: 5, tables: { corrected: { version: 6 } } });
    expect(await env.rows('sales_rest')).toEqual([{ id: 3, note: 'e f' }]);
  });
});
