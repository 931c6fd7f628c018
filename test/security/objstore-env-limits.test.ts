/**
 * Issue 9, item 5 (object storage): the MCP_OBJSTORE_* variables can only tighten. A size of 0, a
 * negative or an unparsable one, or a read-only switch that is not one of the documented words,
 * stops the platform at start naming the variable; a valid size never lifts a configured limit.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import { objstoreYaml, toolCaller } from '../integration/objstore-fixtures.js';

let dir: string;
let yaml: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'security-objstore-env-'));
  yaml =
    `server:\n  address: "127.0.0.1:0"\ndata_dir: ${JSON.stringify(join(dir, 'data'))}\n` +
    objstoreYaml({ files: ['driver: filesystem', `root: ${JSON.stringify(join(dir, 'files'))}`, 'max_get_size: 4', 'max_put_size: 10'] });
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The connections as the api builds them: config and connections both see the same environment. */
function build(env: Record<string, string>): ObjstoreConnections {
  return createObjstoreConnections(parseConfig(yaml, env).config, { env });
}

const refused: Array<[string, string]> = [
  ['MCP_OBJSTORE_MAX_GET_SIZE', '0'],
  ['MCP_OBJSTORE_MAX_PUT_SIZE', '0'],
  ['MCP_OBJSTORE_MAX_GET_SIZE', '-1'],
  ['MCP_OBJSTORE_MAX_PUT_SIZE', '10MB'],
  ['MCP_OBJSTORE_MAX_PUT_SIZE', '1e9'],
  ['MCP_OBJSTORE_EXT_READONLY', 'ture'],
];

describe('issue 9 item 5: MCP_OBJSTORE_* values that could lift a limit are refused at start', () => {
  it.each(refused)('%s=%s', (name, value) => {
    expect(() => build({ [name]: value })).toThrow(new RegExp(`^${name} must be`));
  });

  it('`platform serve` exits at start naming the variable', async () => {
    const file = join(dir, 'platform.yaml');
    await writeFile(file, yaml);
    for (const [name, value] of [refused[0]!, refused[5]!]) {
      const out = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        // Killed if it started serving instead (the failure this test guards against).
        const child = spawn(process.execPath, [platformBin, 'serve', '-c', file], {
          cwd: repoRoot,
          env: cliEnv({ [name]: value }),
          signal: AbortSignal.timeout(45_000),
          killSignal: 'SIGKILL',
        });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', (err) => (err.name === 'AbortError' ? undefined : reject(err)));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(out.code, `${name}=${value}`).toBe(1);
      expect(out.stderr).toContain(`${name} must be`);
    }
  });
});

describe('issue 9 item 5: valid MCP_OBJSTORE_* values only tighten the configured limits', () => {
  it('a larger MCP_OBJSTORE_MAX_PUT_SIZE keeps max_put_size; a smaller one lowers it', async () => {
    for (const [env, limit] of [[{ MCP_OBJSTORE_MAX_PUT_SIZE: '1000000' }, 10], [{ MCP_OBJSTORE_MAX_PUT_SIZE: '5' }, 5]] as const) {
      const connections = build(env);
      await connections.get('files').store.ensureBucket('bkt');
      const call = toolCaller(connections);
      const answer = await call('objstore_put_object', { bucket: 'bkt', key: 'k', body: 'x'.repeat(11) });
      expect(answer.body).toMatchObject({ error: 'EntityTooLarge', message: expect.stringContaining(`limit of ${limit} bytes`) });
      await connections.close();
    }
  });

  it('a larger MCP_OBJSTORE_MAX_GET_SIZE keeps max_get_size (reads still stop there)', async () => {
    const connections = build({ MCP_OBJSTORE_MAX_GET_SIZE: '1000000' });
    await connections.get('files').store.ensureBucket('bkt');
    await connections.get('files').store.putObject('bkt', 'eight.txt', '12345678');
    const answer = await toolCaller(connections)('objstore_get_object', { bucket: 'bkt', key: 'eight.txt' });
    expect(answer.body).toMatchObject({ content: '1234', truncated: true, size: 8 });
    await connections.close();
  });

  it('MCP_OBJSTORE_EXT_READONLY=yes makes writes ReadOnlyMode', async () => {
    const connections = build({ MCP_OBJSTORE_EXT_READONLY: 'yes' });
    const answer = await toolCaller(connections)('objstore_put_object', { bucket: 'bkt', key: 'k', body: 'x' });
    expect(answer.body).toMatchObject({ error: 'ReadOnlyMode' });
    await connections.close();
  });
});
