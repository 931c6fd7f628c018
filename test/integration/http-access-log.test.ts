/**
 * Issue 10 item 3: request logging that costs the hot path little. One access line per request
 * instead of Fastify's two; 5xx answers logged at error, so they survive any level; the
 * production logger writes stderr in asynchronous batches and loses nothing when the process exits.
 */
import { execFile } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { createLogger } from '../../shared/logging/index.js';
import { defaultGatherLimits } from '../../shared/logging/gathered-lines.js';
import { createMetrics } from '../../shared/metrics/index.js';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

async function loggedApp(level: string): Promise<{ app: App; url: string; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  const app = await buildHttpApp({
    log: createLogger({ level, destination }),
    metrics: createMetrics({ defaultMetrics: false }),
    readiness: new Readiness(),
    bodyLimit: 1024,
    version: 't',
    serveMetrics: false,
  });
  app.get('/fails', async () => {
    throw new Error('broken on purpose');
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, lines };
}

/** The lines of one request, once its access line is written (after the response went out). */
async function linesOf(lines: LogLine[], reqId: string | null): Promise<LogLine[]> {
  await expect.poll(() => lines.some((l) => l.reqId === reqId && l.msg === 'request completed')).toBe(true);
  return lines.filter((l) => l.reqId === reqId);
}

describe('access lines at the default level', () => {
  let server: Awaited<ReturnType<typeof loggedApp>>;
  beforeAll(async () => {
    server = await loggedApp('info');
  });
  afterAll(async () => server?.app.close());

  it('one line per request with method, redacted URL, status and duration', async () => {
    const response = await fetch(`${server.url}/healthz?api_key=S3CR3T`);
    const lines = await linesOf(server.lines, response.headers.get('x-request-id'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/healthz?api_key=[redacted]' }, res: { statusCode: 200 } });
    expect(lines[0]!.responseTime).toBeGreaterThan(0);
  });
});

describe('errors at a quiet level', () => {
  let server: Awaited<ReturnType<typeof loggedApp>>;
  beforeAll(async () => {
    server = await loggedApp('warn');
  });
  afterAll(async () => server?.app.close());

  it('a 5xx answer is still logged, with its error; a 200 is not', async () => {
    const failed = await fetch(`${server.url}/fails`);
    expect(failed.status).toBe(500);
    const lines = await linesOf(server.lines, failed.headers.get('x-request-id'));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'request failed'],
      [50, 'request completed'],
    ]);
    expect(lines[1]).toMatchObject({ req: { method: 'GET', url: '/fails' }, res: { statusCode: 500 } });

    const ok = await fetch(`${server.url}/healthz`);
    expect(ok.status).toBe(200);
    const id = ok.headers.get('x-request-id');
    // The 200 wrote nothing; a later failing request proves the log has caught up past it.
    const after = await fetch(`${server.url}/fails`);
    await linesOf(server.lines, after.headers.get('x-request-id'));
    expect(server.lines.filter((l) => l.reqId === id)).toEqual([]);
  });
});

describe('the production logger', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'async-log-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const logging = fileURLToPath(new URL('../../shared/logging/index.ts', import.meta.url));
  /** Runs `body` in a child process that has `createLogger` and `fstatSync`, with stderr on a file. */
  async function child(body: string): Promise<{ stdout: string; stderrLines: string[] }> {
    const stderrFile = join(dir, `stderr-${Math.random().toString(36).slice(2)}.log`);
    const script = `
      import { fstatSync } from 'node:fs';
      const { createLogger } = await import(${JSON.stringify(logging)});
      ${body}
    `;
    const run = promisify(execFile);
    const { stdout } = await run('/bin/sh', ['-c', `exec "$0" --import tsx --input-type=module -e "$1" 2>"$2"`, process.execPath, script, stderrFile]);
    return { stdout, stderrLines: (await readFile(stderrFile, 'utf8')).split('\n').filter(Boolean) };
  }

  it('writes stderr off the logging call and flushes everything at exit', async () => {
    // Log 1000 lines in one tick, report how much of them reached the file by then, exit at once.
    const { stdout, stderrLines: written } = await child(`
      const log = createLogger({ level: 'info' });
      for (let i = 0; i < 1000; i++) log.info({ i }, 'line');
      process.stdout.write(String(fstatSync(2).size));
      process.exit(0);
    `);
    expect(written).toHaveLength(1000);
    expect(JSON.parse(written[999]!)).toMatchObject({ msg: 'line', i: 999 });
    // When the loop ended, at most the first batch (64 KiB and the line that filled it) had been
    // handed to a write; the rest waited for the event loop, and for the exit.
    expect(Number(stdout)).toBeLessThan(defaultGatherLimits.maxChars + 2 * written[0]!.length);
  });

  it('a lone line is written within the flush interval, without waiting for more or for the exit', async () => {
    const { stdout, stderrLines } = await child(`
      const log = createLogger({ level: 'info' });
      log.error('alone');
      const poll = setInterval(() => {
        if (fstatSync(2).size === 0) return;
        clearInterval(poll);
        process.stdout.write('written while running');
      }, 20);
    `);
    expect(stdout).toBe('written while running');
    expect(stderrLines.map((l) => JSON.parse(l) as { msg: string })).toMatchObject([{ msg: 'alone' }]);
  });
});
