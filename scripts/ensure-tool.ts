/**
 * `scripts/install-tools.sh temporal|minio` runs this: the platform's own lookup and install
 * (shared/toolchain), so the script and `platform dev` never disagree. Prints one absolute path per tool.
 */
import { ensureBinary, toolSpecs, type ToolName } from '../shared/toolchain/index.js';

const isTool = (name: string): name is ToolName => Object.hasOwn(toolSpecs, name);

for (const name of process.argv.slice(2)) {
  if (!isTool(name)) {
    process.stderr.write(`install-tools: unknown tool '${name}' (expected ${Object.keys(toolSpecs).join(', ')}, conformance, inspector, redocly, trino or node)\n`);
    process.exit(1);
  }
  try {
    process.stdout.write(`${await ensureBinary(name)}\n`);
  } catch (err) {
    process.stderr.write(`install-tools: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
