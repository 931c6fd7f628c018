/**
 * External tools the tests run, found or installed into the tool cache by
 * scripts/install-tools.sh (which prints the tool's path last): e.g. the MCP conformance suite and
 * the MCP Inspector, npm packages run under Node 22.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** Below vitest's hook timeout (180 s), so our kill comes first; a first npm install takes ~20 s. */
const installTimeoutMs = 150_000;

/** The path of `tool` (a launcher or binary), installing it the first time. */
export function installTool(tool: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('bash', ['scripts/install-tools.sh', tool], { cwd: repoRoot, timeout: installTimeoutMs }, (error, stdout, stderr) => {
      const path = stdout.trim().split('\n').at(-1);
      if (error || !path) reject(new Error(`scripts/install-tools.sh ${tool} failed:\n${stderr}`));
      else resolve(path);
    });
  });
}
