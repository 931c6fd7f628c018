/**
 * Cross-enrichment on DuckDB against the schema-validated DataHub test server: the SQL suite
 * (enrichment-sql-suite.ts) with the `local` database mapped to the catalog's `hive`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { startDatahubServer } from '../support/datahub-server.js';
import { duckdbEnrichmentConfig, execute, startEnrichmentRig, warehouseStatements } from './enrichment-fixtures.js';
import { sqlEnrichmentSuite } from './enrichment-sql-suite.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('SQL enrichment on DuckDB', () => {
  sqlEnrichmentSuite({
    catalog: 'local',
    async start() {
      const dir = mkdtempSync(join(tmpdir(), 'enrich-duckdb-'));
      dirs.push(dir);
      const datahub = await startDatahubServer();
      const config = duckdbEnrichmentConfig(dir, datahub.url);
      const rig = await startEnrichmentRig(config);
      await execute(rig.sql, warehouseStatements('local'));
      return { rig, datahub };
    },
  });
});
