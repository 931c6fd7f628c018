/**
 * MCP Apps at start-up (issue 40 part B, spec document 1 `mcpapps.*`): an enabled app whose
 * assets_path or entry file is missing, not a directory or file, or reached through a symlink out
 * of the directory, stops the start naming the key; so does a built-in logo that is no SVG.
 * `platform config check` (which may run away from the deployment) only warns about the files.
 */
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../shared/config/index.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { runPlatform } from '../support/cli.js';

describe('MCP Apps at start-up', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-apps-start-'));
    await mkdir(join(dir, 'app'));
    await writeFile(join(dir, 'app', 'index.html'), '<html></html>');
    await writeFile(join(dir, 'outside.html'), '<html>outside</html>');
    await symlink(join(dir, 'outside.html'), join(dir, 'app', 'escape.html'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const yaml = (apps: string) => apiConfigYaml({ extra: `mcpapps:\n  apps:\n${apps}` });

  it('platform serve refuses a custom app whose assets_path does not exist, naming the key, and exits 2', async () => {
    const file = join(dir, 'missing-dir.yaml');
    const missing = join(dir, 'nope');
    await writeFile(file, yaml(`    charts: { assets_path: ${JSON.stringify(missing)} }\n`));
    const { code, stderr } = await runPlatform(['serve', '--config', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`mcpapps.apps.charts.assets_path: directory ${missing} does not exist`);
  });

  it('a missing entry file, an entry symlinked out of assets_path, an assets_path that is a file, and a logo that is no SVG each stop the start', async () => {
    const start = (apps: string) =>
      startTestApi({ config: testConfig(yaml(apps)) }).then(
        async (api) => {
          await api.stop();
          return [];
        },
        (error: unknown) => {
          if (!(error instanceof ConfigError)) throw error;
          return error.issues;
        },
      );
    expect(await start(`    charts: { assets_path: ${JSON.stringify(join(dir, 'app'))}, entry_point: main.html }\n`)).toEqual([
      { path: 'mcpapps.apps.charts.entry_point', message: 'entry file main.html does not exist' },
    ]);
    expect(await start(`    a: { assets_path: ${JSON.stringify(join(dir, 'app'))}, entry_point: escape.html }\n`)).toEqual([
      { path: 'mcpapps.apps.a.entry_point', message: "entry file escape.html resolves outside the app's directory (symlink)" },
    ]);
    const aFile = join(dir, 'outside.html');
    expect(await start(`    b: { assets_path: ${JSON.stringify(aFile)} }\n`)).toEqual([
      { path: 'mcpapps.apps.b.assets_path', message: `${aFile} is not a directory` },
    ]);
    expect(await start('    platform-info: { config: { logo_svg: "<html><body>no svg</body></html>" } }\n')).toEqual([
      { path: 'mcpapps.apps.platform-info.config.logo_svg', message: 'not an SVG document (<svg>…</svg>)' },
    ]);
    // Every problem at once; a disabled app is not looked at; a good one starts.
    expect((await start(`    c: { assets_path: /no/c }\n    d: { assets_path: /no/d }\n    e: { enabled: false, assets_path: /no/e }\n`)).map((i) => i.path)).toEqual([
      'mcpapps.apps.c.assets_path',
      'mcpapps.apps.d.assets_path',
    ]);
    expect(await start(`    good: { assets_path: ${JSON.stringify(join(dir, 'app'))} }\n`)).toEqual([]);
  });

  it('platform config check warns about missing app files but accepts the file (it may be checked elsewhere)', async () => {
    const file = join(dir, 'check.yaml');
    await writeFile(file, yaml('    charts: { assets_path: /no/such/app }\n'));
    const { code, stdout } = await runPlatform(['config', 'check', file]);
    expect(stdout).toContain('warning: mcpapps.apps.charts.assets_path: directory /no/such/app does not exist (here; the start refuses it)');
    expect(stdout).toContain(`${file}: ok`);
    expect(code).toBe(0);
  });
});
