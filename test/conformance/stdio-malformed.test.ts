/**
 * `platform stdio` answers every line: a line that is not JSON gets -32700, JSON that is not a
 * JSON-RPC message gets -32600 (with its id when it had one), and a JSON-RPC batch is refused in
 * sessions negotiated at 2025-06-18 or later but handled — one array line of responses — in older
 * ones. Tests write raw lines to the real process and read what it writes back.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import type { Json } from './wire.js';
import { MAX_JSON_DEPTH } from '../../shared/inbound/index.js';

/** A `platform stdio` process with line-level access to its stdin and stdout. */
class StdioProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  readonly #lines: string[] = [];
  readonly #waiting: Array<(line: string) => void> = [];

  constructor(configFile: string) {
    this.child = spawn(process.execPath, [platformBin, 'stdio', '--config', configFile], { cwd: repoRoot, env: cliEnv() });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
  }

  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  send(message: Json): void {
    this.write(JSON.stringify(message));
  }

  /** The next line the process writes, parsed. */
  next(): Promise<Json> {
    const line = this.#lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    return new Promise((resolve) => this.#waiting.push((l) => resolve(JSON.parse(l))));
  }

  async initialize(protocolVersion: string): Promise<Json> {
    this.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw-stdio', version: '1' } } });
    const answer = await this.next();
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return answer;
  }

  async stop(): Promise<void> {
    this.child.stdin.end();
    await this.exited;
  }
}

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('platform stdio answers malformed lines and batches', () => {
  let dir: string;
  let configFile: string;
  const running: StdioProcess[] = [];
  const start = () => {
    const p = new StdioProcess(configFile);
    running.push(p);
    return p;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stdio-raw-'));
    configFile = join(dir, 'platform.yaml');
    await writeFile(configFile, 'server:\n  name: raw-stdio-test\n');
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((p) => p.stop()));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('answers a line that is not JSON with -32700 and id null, and keeps serving', async () => {
    const p = start();
    await p.initialize('2025-11-25');
    p.write('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    p.send(ping(2));
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it(`answers a line nested deeper than ${MAX_JSON_DEPTH} levels with -32600 before parsing it, and keeps serving`, async () => {
    const p = start();
    await p.initialize('2025-11-25');
    p.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}}}`);
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: the line nests deeper than ${MAX_JSON_DEPTH} levels` } });
    p.send(ping(2));
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('answers JSON that is not a JSON-RPC message with -32600, naming its id when it had one', async () => {
    const p = start();
    await p.initialize('2025-11-25');
    const invalid = [
      [{ jsonrpc: '2.0', id: 7, method: 5 }, 7],
      [{ jsonrpc: '1.0', id: 'x', method: 'ping' }, 'x'],
      [{ jsonrpc: '2.0', id: 8, method: 'ping', extra: true }, 8],
      [{ jsonrpc: '2.0', id: 9, method: 'tools/list', params: [1, 2] }, 9],
      [{ jsonrpc: '2.0', id: null, method: 'ping' }, null],
      [42, null],
      ['"a string"', null],
    ] as const;
    for (const [message, id] of invalid) {
      p.write(typeof message === 'string' ? message : JSON.stringify(message));
      expect(await p.next(), JSON.stringify(message)).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } });
    }
    p.send(ping(10));
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: 10, result: {} });
  });

  it.each(['2025-06-18', '2025-11-25'])('refuses a batch in a session negotiated at %s', async (version) => {
    const p = start();
    expect((await p.initialize(version)).result.protocolVersion).toBe(version);
    p.write(JSON.stringify([ping(1), ping(2)]));
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining(version) } });
  });

  it('refuses a batch before initialize', async () => {
    const p = start();
    p.write(JSON.stringify([ping(1)]));
    expect(await p.next()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('handles a batch in a session negotiated at 2025-03-26: one array line answers its requests', async () => {
    const p = start();
    expect((await p.initialize('2025-03-26')).result.protocolVersion).toBe('2025-03-26');
    p.write(JSON.stringify([ping(1), { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' }]));
    const answer = await p.next();
    expect(Array.isArray(answer)).toBe(true);
    expect(answer).toHaveLength(2);
    const byId = Object.fromEntries(answer.map((m: Json) => [m.id, m]));
    expect(byId[1]).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(byId[2].result.tools.map((t: Json) => t.name)).toEqual(['platform_info']);
  });

  it('in an older session: invalid members are answered inside the batch; a batch of notifications gets no line; an empty batch gets -32600', async () => {
    const p = start();
    await p.initialize('2024-11-05');
    p.write(JSON.stringify([ping(3), 5]));
    const answer = await p.next();
    expect(answer).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 3, result: {} },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } },
      ]),
    );
    expect(answer).toHaveLength(2);
    // Nothing is written for the notifications: the next line answers the ping sent after them.
    p.write(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]));
    p.send(ping(4));
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    p.write('[]');
    expect(await p.next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('empty batch') } });
  });

  it('answers every request piped in before the input closed, then exits 0', async () => {
    const p = start();
    p.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } });
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'platform_info', arguments: {} } });
    p.child.stdin.end();
    expect((await p.next()).id).toBe(1);
    expect(await p.next()).toMatchObject({ id: 2, result: { structuredContent: { name: 'raw-stdio-test' } } });
    expect(await p.exited).toBe(0);
  });
});
