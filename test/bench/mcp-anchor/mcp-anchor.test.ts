import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfigFile } from '../../../shared/config/index.js';
import { Cleanups } from '../mcp/cleanup.js';
import { deathCause, harnessDir, serverEnv, writeServerConfig } from './harness.js';
import { formatAnchorReport, oursFailures, type AnchorReport, type RunRecord, type WorkloadRuns } from './report.js';

const run = (round: number, rate: number, extra: Partial<RunRecord> = {}): RunRecord => ({ round, rate, errors: 0, ...extra });

function reportOf(workloads: WorkloadRuns[]): AnchorReport {
  return { anchor: 'anchor', ours: 'compiled', connections: 16, seconds: 10, warmupSeconds: 2, rounds: 2, bare: [run(1, 10_000), run(2, 10_000)], workloads, loadavg: { start: '1 1 1', end: '1 1 1' } };
}

describe('bench:mcp-anchor report (issue 41: ours / anchor against the goals)', () => {
  it('ratios are taken round by round, their median decides the goal, and a round the anchor died in with nothing counts as ours ahead', () => {
    const text = formatAnchorReport(
      reportOf([
        { workload: 'W1', runs: { ours: [run(1, 1200), run(2, 1300)], anchor: [run(1, 1000), run(2, 1000)] } },
        { workload: 'W3', runs: { ours: [run(1, 900), run(2, 800)], anchor: [run(1, 0, { died: 'exited (SIGSEGV)' }), run(2, 1000)] } },
      ]),
    );
    expect(text).toContain('ours / anchor: per round 1.20 1.30, median 1.25; goal >= 1.2: MET');
    // Rounds inf and 0.80: median inf, ahead; ours ran clean.
    expect(text).toContain('ours / anchor: per round inf 0.80, median inf; goal ahead, never fail: MET');
    expect(text).toContain('anchor, W3 round 1: the server died during the run: exited (SIGSEGV)');
  });

  it('W3 is not met while ours fails, however far ahead, and failures of ours are counted for the exit code', () => {
    const report = reportOf([{ workload: 'W3', runs: { ours: [run(1, 2000, { errors: 3, lastError: 'HTTP 503' }), run(2, 2000)], anchor: [run(1, 1000), run(2, 1000)] } }]);
    expect(formatAnchorReport(report)).toContain('median 2.00; goal ahead, never fail: NOT MET');
    expect(formatAnchorReport(report)).toContain('ours, W3 round 1: 3 failed operations, the last: HTTP 503');
    expect(oursFailures(report)).toBe(1);
  });

  it('the anchor failing is reported but is no failure of ours', () => {
    const report = reportOf([{ workload: 'W2', runs: { ours: [run(1, 500), run(2, 500)], anchor: [run(1, 0, { failed: 'loadgen exit 1: setup: initialize: HTTP 500' }), run(2, 1000)] } }]);
    expect(formatAnchorReport(report)).toContain('anchor, W2 round 1: no figures: loadgen exit 1: setup: initialize: HTTP 500');
    expect(oursFailures(report)).toBe(0);
  });
});

/** The shared folder is laid beside the repository for sessions and CI; elsewhere these are skipped. */
const haveHarness = (() => {
  try {
    return harnessDir() !== '';
  } catch {
    return false;
  }
})();

describe.skipIf(!haveHarness)('bench:mcp-anchor configurations from the shared harness', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-anchor-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('moves each server and its object store to the given ports and keeps the rest of the harness file', () => {
    const harness = harnessDir();
    const anchorFile = join(dir, 'anchor.yaml');
    writeServerConfig({ harness, kind: 'anchor', file: anchorFile, port: 40001, minioEndpoint: 'http://127.0.0.1:40002', connections: 16 });
    const anchor = parse(readFileSync(anchorFile, 'utf8'));
    const original = parse(readFileSync(join(harness, 'anchor.yaml'), 'utf8'));
    expect(anchor.server.address).toBe('127.0.0.1:40001');
    expect(anchor.toolkits.s3.instances.bench.endpoint).toBe('http://127.0.0.1:40002');
    expect({ ...anchor, server: original.server, toolkits: original.toolkits }).toEqual(original);
  });

  it('ours with audit on is a configuration our loader accepts, auditing tool calls into the database', () => {
    const file = join(dir, 'ours-audit.yaml');
    writeServerConfig({ harness: harnessDir(), kind: 'ours-audit', file, port: 40003, minioEndpoint: 'http://127.0.0.1:40004', connections: 100, auditDsn: 'postgresql://postgres@127.0.0.1:5432/bench' });
    const env = serverEnv({ key: 'k'.repeat(32), dir, accessKeyId: 'access', secretAccessKey: 'secret' });
    const { config } = loadConfigFile(file, env);
    expect(config.server.address).toBe('127.0.0.1:40003');
    expect(config.audit).toMatchObject({ enabled: true, log_tool_calls: true });
    expect(config.database.dsn).toBe('postgresql://postgres@127.0.0.1:5432/bench');
    expect(config.sessions.max_per_subject).toBe(100);
  });
});

describe('bench:mcp-anchor names why a server died', () => {
  it("gives a Go runtime's fatal error with the first frame outside the standard library (the anchor under W3)", () => {
    const log = [
      '{"level":"INFO","msg":"Starting HTTP server on 127.0.0.1:28081"}',
      'fatal error: concurrent map writes',
      '',
      'goroutine 9477 [running]:',
      'internal/runtime/maps.fatal({0x136622c?, 0x11f8220?})',
      '\t/usr/local/go/src/runtime/panic.go:1181 +0x18',
      'reflect.mapIterNext(0x104e62a54e10)',
      '\t/usr/local/go/src/reflect/map.go:318 +0x18',
      'github.com/txn2/mcp-data-platform/pkg/mcpapps.injectToolMetadata(0x104e6254ec30, {0x104e622283b0?})',
      '\t/src/pkg/mcpapps/middleware.go:61 +0x225',
    ].join('\n');
    expect(deathCause(log)).toBe('fatal error: concurrent map writes in github.com/txn2/mcp-data-platform/pkg/mcpapps.injectToolMetadata');
  });

  it('gives the last lines of a log without a runtime error', () => {
    expect(deathCause('a\nb\nc\nd\n')).toBe('its log ends: b | c | d');
  });
});

describe('bench cleanup', () => {
  it('undoes in reverse order, and at once what is registered while cleaning (a server that was still starting)', async () => {
    const cleanups = new Cleanups();
    const done: string[] = [];
    cleanups.push(() => done.push('first'));
    cleanups.push(() => done.push('second'));
    const cleaning = cleanups.run();
    cleanups.push(() => done.push('late'));
    // Not queued behind the stack: run as it is registered.
    expect(done).toContain('late');
    await cleaning;
    await cleanups.run();
    expect(done.filter((d) => d !== 'late')).toEqual(['second', 'first']);
    expect(done).toHaveLength(3);
  });
});
