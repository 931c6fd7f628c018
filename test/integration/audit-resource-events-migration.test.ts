/**
 * Migration 0009 on a database that already holds reads: audit rows of reads written before it
 * get their resource_id; reads only the resource_reads side table held (audit on, tool-call
 * logging off) move into audit_log once, with a time-ordered UUIDv7-shaped id; the side table goes.
 */
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, defaultMigrationsDir, migrate, type Db } from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';

describe('migration 0009: resource events in the audit log', () => {
  let database: { dsn: string; drop(): Promise<void> };
  let db: Db;
  let before: string;
  const id = '0190a6b2-7c3e-7a11-8f00-000000000001';

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPool({ dsn: database.dsn, maxOpenConns: 2 });
    // The repository's migrations up to 0008, as a database made before this change has them.
    before = await mkdtemp(join(tmpdir(), 'migrations-0008-'));
    const all = defaultMigrationsDir();
    for (const file of await readdir(all)) if (file < '0009') await copyFile(join(all, file), join(before, file));
    await migrate(db, { dir: before });
  });
  afterAll(async () => {
    await db?.end();
    await database?.drop();
    await rm(before, { recursive: true, force: true });
  });

  it('backfills resource_id, moves reads only the side table had, and drops it', async () => {
    await db.query(
      `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, description, tags, content_type, size,
                              content_sha256, head_version, search_setting, uploader, created_at, updated_at)
       VALUES ($1, 'person', 'alice', '', 'a.txt', 'a', '', '{}', 'text/plain', 1, NULL, 1, 'default', 'alice', now(), now())`,
      [id],
    );
    // Read twice: once while tool calls were logged too (both tables), once with only the side table.
    await db.query(
      `INSERT INTO resource_reads (resource_id, door, reader, read_at) VALUES
         ($1, 'resources_read', 'alice', '2024-05-01T10:00:00Z'), ($1, 'portal_download', 'bob', '2024-05-02T10:00:00Z')`,
      [id],
    );
    await db.query(
      `INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, parameters, duration_ms, outcome)
       VALUES (gen_random_uuid(), '2024-05-01T10:00:00Z', 'alice', 'oidc', 'resources/read', jsonb_build_object('reference', 'mcp:resource:' || $1::text), 0, 'ok'),
              (gen_random_uuid(), '2024-05-01T11:00:00Z', 'alice', 'oidc', 'manage_resource', '{"action": "get"}', 3, 'ok')`,
      [id],
    );

    expect((await migrate(db)).applied).toContain('0009_audit_resource_events');

    const rows = await db.query<{ id: string; tool: string; subject: string; auth_type: string; resource_id: string | null; occurred_at: Date }>(
      'SELECT id, tool, subject, auth_type, resource_id, occurred_at FROM audit_log ORDER BY occurred_at',
    );
    expect(rows.rows.map(({ tool, subject, auth_type, resource_id }) => ({ tool, subject, auth_type, resource_id }))).toEqual([
      { tool: 'resources/read', subject: 'alice', auth_type: 'oidc', resource_id: id },
      { tool: 'manage_resource', subject: 'alice', auth_type: 'oidc', resource_id: null },
      { tool: 'portal_download', subject: 'bob', auth_type: 'unknown', resource_id: id },
    ]);
    const moved = rows.rows[2]!;
    // UUIDv7 layout: 48-bit millisecond time, version 7, variant 10.
    expect(moved.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(moved.id.replace(/-/g, '').slice(0, 12), 16)).toBe(moved.occurred_at.getTime());
    expect((await db.query(`SELECT to_regclass('resource_reads') AS t`)).rows[0].t).toBeNull();
    expect((await db.query(`SELECT to_regclass('audit_log_resource_occurred_at') AS t`)).rows[0].t).not.toBeNull();
  });
});
