import { gzipSync } from 'node:zlib';
import { PutObjectCommand, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { sharedTrino } from './support/trino.js';
import { sharedMinio } from './support/minio.js';
const url = await sharedTrino();
const m = await sharedMinio();
const s3 = new S3Client({ endpoint: m.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: m.accessKeyId, secretAccessKey: m.secretAccessKey } });
await s3.send(new CreateBucketCommand({ Bucket: 'exp-resources' }));
const put = (k: string, lines: object[]) => s3.send(new PutObjectCommand({ Bucket: 'exp-resources', Key: k, Body: gzipSync(lines.map((l) => JSON.stringify(l)).join('\n') + '\n') }));
await put('t/dt=1/a.jsonl.gz', [{ id: 'a', ts: '2026-11-22 10:00:00.123456' }]);
await put('t/dt=2/b.jsonl.gz', [{ id: 'b', ts: '2026-11-22T10:00:00.654321Z' }]);
async function q(sql: string) {
  const headers = { 'x-trino-user': 'exp' };
  let a: any = await (await fetch(`${url}/v1/statement`, { method: 'POST', headers, body: sql })).json();
  const rows: unknown[] = [];
  while (a.nextUri) { a = await (await fetch(a.nextUri, { headers })).json(); if (a.data) rows.push(...a.data); }
  console.log(sql.slice(0, 90).replace(/\s+/g, ' '), '=>', a.error ? 'ERR ' + a.error.message + ' ' + a.error.errorName : JSON.stringify(rows));
}
for (const cat of ['scratch', 'scratch_locked']) {
  await q(`CREATE SCHEMA IF NOT EXISTS ${cat}.exp`);
  await q(`CREATE TABLE ${cat}.exp.t (id varchar, ts timestamp(6), dt varchar) WITH (external_location='s3://exp-resources/t', format='JSON', partitioned_by=ARRAY['dt'])`);
  await q(`CALL ${cat}.system.register_partition(schema_name => 'exp', table_name => 't', partition_columns => ARRAY['dt'], partition_values => ARRAY['1'], location => 's3://exp-resources/t/dt=1')`);
  await q(`CALL ${cat}.system.register_partition(schema_name => 'exp', table_name => 't', partition_columns => ARRAY['dt'], partition_values => ARRAY['2'], location => 's3://exp-resources/t/dt=2')`);
  await q(`CALL ${cat}.system.register_partition(schema_name => 'exp', table_name => 't', partition_columns => ARRAY['dt'], partition_values => ARRAY['2'], location => 's3://exp-resources/t/dt=2')`);
  await q(`CALL ${cat}.system.register_partition(schema_name => 'exp', table_name => 't', partition_columns => ARRAY['dt'], partition_values => ARRAY['3'], location => 's3://exp-resources/t/dt=3')`);
  await q(`SELECT * FROM ${cat}.exp.t`);
  await q(`SELECT * FROM ${cat}.exp."t$partitions"`);
  await q(`CREATE OR REPLACE VIEW ${cat}.exp.v SECURITY INVOKER AS SELECT t.*, p.dt AS pdt FROM ${cat}.exp.t t JOIN ${cat}.exp."t$partitions" p ON p.dt = t.dt`);
  await q(`SELECT * FROM ${cat}.exp.v`);
  await q(`CALL ${cat}.system.unregister_partition(schema_name => 'exp', table_name => 't', partition_columns => ARRAY['dt'], partition_values => ARRAY['1'])`);
  await q(`CALL ${cat}.system.unregister_partition(schema_name => 'exp', table_name => 't', partition_columns => ARRAY['dt'], partition_values => ARRAY['1'])`);
  await q(`SELECT * FROM ${cat}.exp.t`);
  await q(`CREATE TABLE ${cat}.exp.bad (ts timestamp(9)) WITH (external_location='s3://exp-resources/bad', format='PARQUET')`);
  await q(`CREATE TABLE ${cat}.exp.nobucket (x varchar) WITH (external_location='s3://no-such-bucket/x', format='PARQUET')`);
  await q(`SELECT connector_name FROM system.metadata.catalogs WHERE catalog_name = '${cat}'`);
  await q(`DROP VIEW IF EXISTS ${cat}.exp.v`);
  await q(`DROP TABLE IF EXISTS ${cat}.exp.t`);
}
process.exit(0);
