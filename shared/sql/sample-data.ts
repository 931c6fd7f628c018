/**
 * The sample dataset of the embedded DuckDB connection: schema `sample` with `customers` (1,000
 * rows) and `orders` (20,000 rows), generated with DuckDB's range() at first start — nothing is
 * downloaded, and the values are a pure function of the row number, so every install has the same.
 */
import { DuckDbEngine } from './duckdb-engine.js';
import type { SqlEngine } from './types.js';

export const SAMPLE_SCHEMA = 'sample';

const firstNames = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Margaret', 'Niklaus', 'Radia', 'Tim'];
const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Hamilton', 'Wirth', 'Perlman', 'Berners'];
const list = (values: readonly string[]) => `[${values.map((v) => `'${v}'`).join(', ')}]`;

const statements = [
  `CREATE SCHEMA ${SAMPLE_SCHEMA}`,
  `CREATE TABLE ${SAMPLE_SCHEMA}.customers AS
   SELECT
     i::INTEGER AS customer_id,
     list_element(${list(firstNames)}, (i % ${firstNames.length}) + 1) || ' ' ||
       list_element(${list(lastNames)}, ((i * 7) % ${lastNames.length}) + 1) AS name,
     'customer' || i || '@example.com' AS email,
     list_element(['DE', 'FR', 'NL', 'US', 'GB', 'ES', 'IT', 'SE'], ((i * 3) % 8) + 1) AS country,
     list_element(['consumer', 'small business', 'enterprise'], ((i * 5) % 3) + 1) AS segment,
     (DATE '2022-01-01' + ((i * 37) % 1095)::INTEGER) AS signup_date
   FROM range(1, 1001) AS r(i)`,
  `CREATE TABLE ${SAMPLE_SCHEMA}.orders AS
   SELECT
     i::BIGINT AS order_id,
     (((i * 7919) % 1000) + 1)::INTEGER AS customer_id,
     (DATE '2024-01-01' + ((i * 13) % 730)::INTEGER) AS order_date,
     list_element(['delivered', 'delivered', 'delivered', 'shipped', 'processing', 'cancelled', 'returned'], ((i * 11) % 7) + 1) AS status,
     list_element(['web', 'mobile', 'store', 'partner'], ((i * 17) % 4) + 1) AS channel,
     (5 + ((i * 104729) % 49500) / 100.0)::DECIMAL(10, 2) AS amount,
     'EUR' AS currency
   FROM range(1, 20001) AS r(i)`,
  `COMMENT ON TABLE ${SAMPLE_SCHEMA}.customers IS 'Generated sample customers (1,000 rows): one row per customer.'`,
  `COMMENT ON TABLE ${SAMPLE_SCHEMA}.orders IS 'Generated sample orders (20,000 rows, 2024-2025): one row per order; amount in EUR.'`,
  `COMMENT ON COLUMN ${SAMPLE_SCHEMA}.customers.email IS 'Contact e-mail address (personal data)'`,
  `COMMENT ON COLUMN ${SAMPLE_SCHEMA}.orders.customer_id IS 'References sample.customers.customer_id'`,
  `COMMENT ON COLUMN ${SAMPLE_SCHEMA}.orders.status IS 'delivered, shipped, processing, cancelled or returned'`,
];

/**
 * Creates the sample dataset unless the `sample` schema already exists (so a user's changes to it
 * survive restarts). Returns whether it was created. Only DuckDB engines get one.
 */
export async function ensureSampleData(engine: SqlEngine): Promise<boolean> {
  if (!(engine instanceof DuckDbEngine)) return false;
  const catalog = engine.defaults.catalog ?? 'main';
  const schemas = await engine.listSchemas(catalog, AbortSignal.timeout(30_000));
  if (schemas.includes(SAMPLE_SCHEMA)) return false;
  // One transaction: a crash half-way leaves no half-made schema that would block the next start.
  await engine.exec(['BEGIN TRANSACTION', ...statements, 'COMMIT'].join(';\n'));
  return true;
}
