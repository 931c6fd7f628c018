/**
 * Cross-enrichment on a real Trino against the schema-validated DataHub test server: the SQL suite
 * (enrichment-sql-suite.ts) with Trino's `memory` catalog mapped to the catalog's `hive` (schemas
 * `sales` and `raw` created there when missing; nothing else in the run writes them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { apiConfigYaml, testConfig } from '../support/api.js';
import { startDatahubServer } from '../support/datahub-server.js';
import { sharedTrino } from '../support/trino.js';
import { enrichmentYaml, execute, filesYaml, startEnrichmentRig, warehouseStatements } from './enrichment-fixtures.js';
import { sqlEnrichmentSuite } from './enrichment-sql-suite.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('SQL enrichment on Trino', () => {
  sqlEnrichmentSuite({
    catalog: 'memory',
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'enrich-trino-'));
      dirs.push(dir);
      const { hostname, port } = new URL(await sharedTrino());
      const datahub = await startDatahubServer();
      const config = testConfig(
        apiConfigYaml({
          extra: `data_dir: ${dir}
${enrichmentYaml({ catalog: 'memory', sqlInstance: 'cluster' })}
toolkits:
  sql:
    cluster: { host: ${hostname}, port: ${port}, user: analyst, catalog: memory, schema: default }
  catalog:
    hub: { url: "${datahub.url}" }
${filesYaml(join(dir, 'files'))}`,
        }),
      );
      const rig = await startEnrichmentRig(config);
      await execute(rig.sql, warehouseStatements('memory', { ifNotExists: true }));
      return { rig, datahub };
    },
  });
});
