/**
 * Issue 35 item 4: the MCP Inspector 2.x CLI (`@modelcontextprotocol/inspector` 2.12.0, run under
 * Node 22 from the tool cache: scripts/install-tools.sh inspector) signs in unaided against the
 * configuration docs/oauth.md recommends. The real binary runs the flow: 401 → discovery → DCR
 * (its own metadata: public client, redirect on its loopback callback listener) → it prints the
 * authorization URL, which the test "opens" like a browser (consent page, sign-in at the local
 * stand-in upstream IdP, our callback) and follows to the CLI's own callback listener → the CLI
 * exchanges the code with PKCE and lists the tools over an authenticated session.
 *
 * The CLI allows interactive OAuth only with a terminal, so it runs under `script` (a pty); the
 * browser is not opened (MCP_AUTO_OPEN_ENABLED=false) and its stores live in a scratch HOME. Its
 * callback listens on a free port here (`--callback-url`); its default, 127.0.0.1:6276, is the
 * registration real-clients.test.ts proves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alice, freePort, recommendedRedirectPatterns, startMemoryRig, type OAuthRig } from './fixtures.js';
import { installTool } from '../support/tools.js';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Resolves with the first match of `pattern` in the child's output so far or to come. */
function waitForOutput(output: { text: string }, child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(output.text);
      if (match) {
        child.stdout?.off('data', check);
        resolve(match);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`the Inspector exited (${code}) before printing ${pattern}:\n${output.text}`)));
    check();
  });
}

describe('MCP Inspector 2.x CLI with the configuration docs/oauth.md recommends', () => {
  let rig: OAuthRig;
  let inspector: string;
  let home: string;
  beforeAll(async () => {
    inspector = await installTool('inspector');
    rig = await startMemoryRig({ patterns: await recommendedRedirectPatterns() });
    home = await mkdtemp(join(tmpdir(), 'inspector-home-'));
  }, 180_000);
  afterAll(async () => {
    await rig?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('registers, signs in through the browser flow, exchanges the code and lists the tools', async () => {
    const callback = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    const command = [inspector, '--cli', `${rig.url}/mcp`, '--method', 'tools/list', '--callback-url', callback, '--format', 'json'];
    const child = spawn('script', ['-qfec', command.map(quote).join(' '), '/dev/null'], {
      env: { ...process.env, HOME: home, NO_COLOR: '1', MCP_AUTO_OPEN_ENABLED: 'false', MCP_INSPECTOR_SECRET_STORE: 'memory', XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local/share') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output = { text: '' };
    const collect = (chunk: Buffer) => {
      output.text += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const [, authorizationUrl] = await waitForOutput(output, child, /Please navigate to: (\S+)/);
      const back = await rig.idp.signIn(authorizationUrl!, alice, { stopAt: (u) => u.href.startsWith(`${callback}?`) });
      expect(back.searchParams.get('code')).toBeTruthy();
      // The browser lands on the CLI's callback listener, which finishes the flow.
      const landed = await fetch(back);
      await landed.body?.cancel();
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill();
    }
    expect(output.text).toContain('"whoami"');
    expect(rig.idp.consentPages()).toBeGreaterThan(0);
  }, 120_000);
});
