/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) as a child process:
 * `scripts/install-tools.sh conformance` installs it under Node 22 into the tool cache (or finds it
 * there, or takes $CONFORMANCE_PATH) and prints the launcher this module runs.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installTool } from '../support/tools.js';

/** Below vitest's test timeout (60 s), so our kill comes first. */
const scenarioTimeoutMs = 50_000;

/** What the suite reports per check (its `ConformanceCheck`, the fields we read). */
export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

export interface ScenarioRun {
  scenario: string;
  exitCode: number;
  checks: ConformanceCheck[];
  /** The suite's console output, for the failure message. */
  output: string;
}

interface ProcessResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end; a non-zero exit is a result, not an error (the suite exits 1 on
 * failures). One still running after `timeoutMs` is killed and rejected, so no child outlives a test.
 */
function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        reject(error);
        return;
      }
      resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

/** The suite's launcher: installs it into the tool cache the first time (npm, about 15 s). */
export function locateConformanceSuite(): Promise<string> {
  return installTool('conformance');
}

/** Scenario names from `conformance list --server` (lines `  - <name> [<spec versions>]`). */
export async function listServerScenarios(launcher: string): Promise<string[]> {
  const result = await run(launcher, ['list', '--server'], tmpdir(), scenarioTimeoutMs);
  if (result.exitCode !== 0) throw new Error(`conformance list --server failed:\n${result.stderr}`);
  return [...result.stdout.matchAll(/^\s*- (\S+)/gm)].map((m) => m[1]!);
}

/**
 * Runs one scenario against `url` and reads the checks.json the suite writes under
 * `<output>/server-<scenario>-<timestamp>/`; the output directory is removed afterwards.
 */
export async function runServerScenario(launcher: string, url: string, scenario: string): Promise<ScenarioRun> {
  const outputDir = await mkdtemp(join(tmpdir(), `conformance-${scenario}-`));
  try {
    const result = await run(launcher, ['server', '--url', url, '--scenario', scenario, '-o', outputDir], outputDir, scenarioTimeoutMs);
    const output = `${result.stdout}${result.stderr}`;
    const [resultDir] = (await readdir(outputDir)).filter((name) => name.startsWith(`server-${scenario}-`));
    if (!resultDir) throw new Error(`conformance wrote no results for ${scenario} (exit ${result.exitCode}):\n${output}`);
    const checks = JSON.parse(await readFile(join(outputDir, resultDir, 'checks.json'), 'utf8')) as ConformanceCheck[];
    return { scenario, exitCode: result.exitCode, checks, output };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/**
 * The checks that did not pass. SUCCESS passes, and so does INFO (the suite's note that an
 * optional behaviour, such as SSE answers, was not used). FAILURE fails, and so do WARNING (e.g.
 * no session id, which cuts a scenario short) and SKIPPED, so a scenario cannot pass by not running.
 */
export function unpassedChecks(run: ScenarioRun): ConformanceCheck[] {
  return run.checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO');
}

/** One line per check that did not pass, with the suite's message verbatim. */
export function describeUnpassed(run: ScenarioRun): string {
  return unpassedChecks(run)
    .map((check) => `${run.scenario} / ${check.id} [${check.status}]: ${check.errorMessage ?? check.description}`)
    .join('\n');
}
