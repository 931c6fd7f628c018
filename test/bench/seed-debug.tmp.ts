import { randomUUID } from 'node:crypto';
import { createPool, migrate } from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';
let state = 20_260_101;
const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const syllables = ['ka', 'lo', 'mi', 'ren', 'ta', 'vos', 'qui', 'dar', 'nel', 'por', 'sul', 'te', 'bra', 'fin', 'gor', 'hul', 'ix', 'jam', 'zed', 'wen'];
const vocabulary = Array.from({ length: 3000 }, (_, i) => { let w = ''; let n = i + 401; while (n > 0) { w += syllables[n % syllables.length]; n = Math.floor(n / syllables.length); } return w; });
const word = () => vocabulary[Math.floor(vocabulary.length * random() ** 2.5)]!;
const words = (n: number) => Array.from({ length: n }, word).join(' ');
const database = await createTestDatabase();
const db = createPool({ dsn: database.dsn, maxOpenConns: 4 });
await migrate(db);
for (let b = 0; b < 100; b++) {
  const rows = Array.from({ length: 100 }, (_, i) => ({ id: randomUUID(), n: b * 100 + i, name: words(2), d: words(8), t: words(200 + Math.floor(random() * 600)) }));
  await db.query(
    `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, description, tags, content_type, size, head_version, uploader, created_at, updated_at)
     SELECT id, CASE WHEN n % 10 < 7 THEN 'global' ELSE 'person' END, CASE WHEN n % 10 < 7 THEN '' ELSE 'bench-' || (n % 10) END, 'folder-' || (n % 40), replace(nm, ' ', '-') || '-' || n || '.md', nm, d, '{}', 'text/markdown', 1000, 1, 'u', now(), now()
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[]) AS t(id, n, nm, d)`,
    [rows.map((r) => r.id), rows.map((r) => r.n), rows.map((r) => r.name), rows.map((r) => r.d)],
  );
  await db.query(`INSERT INTO resource_search_index (resource_id, indexed_version, mode, contents, indexed_at) SELECT id, 1, 'contents', c, now() FROM unnest($1::text[], $2::text[]) AS t(id, c)`, [rows.map((r) => r.id), rows.map((r) => r.t)]);
}
await db.query('ANALYZE');
console.log(database.dsn, vocabulary.slice(0, 3).join(','), vocabulary[1500], vocabulary[2900]);
await db.end();
