/**
 * The usage part of test/bench/resources.ts: GET /api/v1/resources/:id/usage over an audit log of
 * `rows` rows (default 10 million), against GET /api/v1/resources/:id on the same resources in the
 * same run (the baseline: same route stack, authority and row read, no audit query).
 *
 * The log is generated in one INSERT … SELECT generate_series, in time order over 120 days as the
 * writer produces it (UUIDv7-shaped ids): 60% tool calls (no resource), 40% reads by door of
 * 10,000 files, one of which (the hot file) takes a twentieth of all reads. Then VACUUM ANALYZE, as
 * autovacuum would have done on a table this size.
 */
import { as, send, type ResourceRestApi, type Who } from '../integration/resources-rest-fixtures.js';

const files = 10_000;
/** The REST fixture's clock starts here; the generated trail ends at it. */
const anchor = '2025-03-01T12:00:00Z';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const fmt = (n: number) => n.toFixed(2);

export async function benchUsage(api: ResourceRestApi, opts: { rows: number; requests: number; who: Who }): Promise<void> {
  const { db } = api;
  let t0 = performance.now();
  await db.query(
    `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, description, tags, content_type, size,
                            content_sha256, head_version, search_setting, uploader, created_at, updated_at)
     SELECT gen_random_uuid()::text, 'person', $2, 'usage', 'read-' || lpad(n::text, 5, '0') || '.txt', 'read ' || n, '', '{}',
            'text/plain', 100, md5(n::text) || md5(n::text), 1, 'default', $2, $3::timestamptz - interval '200 days', $3::timestamptz - interval '200 days'
     FROM generate_series(1, $1::int) AS n`,
    [files, opts.who.subject, anchor],
  );
  const ids = (await db.query<{ id: string }>(`SELECT id FROM resources WHERE folder_path = 'usage' ORDER BY file_name`)).rows.map((r) => r.id);
  const hot = ids[0]!;
  await db.query(
    `INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, parameters, duration_ms, outcome, resource_id)
     SELECT (lpad(to_hex(floor(extract(epoch FROM g.at) * 1000)::bigint), 12, '0') || '7' || substr(md5(g.n::text), 1, 3) || '8' || substr(md5(g.n::text), 4, 15))::uuid,
            g.at, 'apikey:bench-' || (g.n % 50), 'apikey',
            CASE WHEN g.n % 5 < 3 THEN 'sql_query'
                 ELSE (ARRAY['resources/read', 'search_fetch', 'portal_download', 'portal_preview'])[1 + abs(hashint4(g.n + 1)) % 4] END,
            '{}'::jsonb, 5, 'ok',
            CASE WHEN g.n % 5 < 3 THEN NULL
                 WHEN g.n % 50 = 3 THEN $3
                 ELSE ($2::text[])[1 + abs(hashint4(g.n)) % $4] END
     FROM (SELECT n, $5::timestamptz - interval '120 days' + (interval '120 days' * n / $1::int) AS at FROM generate_series(1, $1::int) AS n) AS g`,
    [opts.rows, ids, hot, ids.length, anchor],
  );
  const generated = performance.now() - t0;
  t0 = performance.now();
  await db.query('VACUUM ANALYZE audit_log');
  console.log(`\nseeded ${opts.rows.toLocaleString('en')} audit rows in ${(generated / 1000).toFixed(1)} s (VACUUM ANALYZE ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  const perFile = await db.query<{ hot: number; typical: number }>(
    `SELECT count(*) FILTER (WHERE resource_id = $1)::int AS hot, (count(*) FILTER (WHERE resource_id = $2))::int AS typical FROM audit_log WHERE resource_id IN ($1, $2)`,
    [hot, ids[1]],
  );
  console.log(`  reads on record: hot file ${perFile.rows[0]!.hot.toLocaleString('en')}, a typical file ${perFile.rows[0]!.typical}`);
  const plan = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT tool, count(*) FROM audit_log WHERE resource_id = $1 AND tool = ANY($2::text[]) AND occurred_at > $3::timestamptz - interval '90 days' GROUP BY tool`,
    [ids[1], ['resources/read', 'search_fetch', 'portal_download', 'portal_preview'], anchor],
  );
  console.log(`  plan of the count: ${plan.rows.map((r) => r['QUERY PLAN'].trim()).filter((l) => /Scan/.test(l)).join(' | ')}`);

  const get = async (path: string) => {
    const start = performance.now();
    const res = await send(`${api.url}${path}`, { method: 'GET', headers: as(opts.who) });
    const elapsed = performance.now() - start;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    return elapsed;
  };
  // Files in a fixed, scattered order (a stride coprime to the count), the same for both routes.
  const pick = (i: number) => ids[1 + ((i * 7919) % (ids.length - 1))]!;
  for (let i = 0; i < 50; i++) {
    await get(`/api/v1/resources/${pick(i)}`);
    await get(`/api/v1/resources/${pick(i)}/usage`);
  }
  const baseline: number[] = [];
  const usage: number[] = [];
  const hotUsage: number[] = [];
  for (let i = 0; i < opts.requests; i++) {
    baseline.push(await get(`/api/v1/resources/${pick(i)}`));
    usage.push(await get(`/api/v1/resources/${pick(i)}/usage`));
  }
  for (let i = 0; i < Math.min(opts.requests, 50); i++) hotUsage.push(await get(`/api/v1/resources/${hot}/usage`));
  const p = (xs: number[]) => `p50 ${fmt(percentile(xs, 50))} ms   p99 ${fmt(percentile(xs, 99))} ms`;
  console.log(`GET by id vs usage, ${opts.requests} requests each over ${ids.length - 1} files:`);
  console.log(`  GET /api/v1/resources/:id (baseline):   ${p(baseline)}`);
  console.log(`  GET /api/v1/resources/:id/usage:        ${p(usage)}`);
  console.log(`  ratio usage/baseline:                   p50 ${fmt(percentile(usage, 50) / percentile(baseline, 50))}   p99 ${fmt(percentile(usage, 99) / percentile(baseline, 99))}`);
  console.log(`  usage of the hot file (${hotUsage.length} requests):  ${p(hotUsage)}`);
}
