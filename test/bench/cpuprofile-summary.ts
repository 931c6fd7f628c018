/**
 * Prints the self time of a V8 CPU profile by module: a package under node_modules, a file of this
 * repository, or a Node internal. Native functions (no script of their own, e.g. `writev`) count
 * toward the module that called them, marked `(native)`. Top entries with their share of busy time.
 *
 *   npx tsx test/bench/cpuprofile-summary.ts api.cpuprofile [top=25]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `pkg` or `@scope/pkg` for node_modules, the repo path for our files, `node:<area>` for Node's own. */
function moduleOfUrl(url: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  if (url.startsWith('file://')) return relative(process.cwd(), new URL(url).pathname);
  return url;
}

const [file, top = '25'] = process.argv.slice(2);
if (!file) throw new Error('usage: cpuprofile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

function moduleOf(id: number): string {
  const { url, functionName } = nodes.get(id)!.callFrame;
  if (url !== '') return moduleOfUrl(url);
  // `(garbage collector)`, `(program)`, `(idle)`, `(root)` are V8's own buckets.
  if (functionName.startsWith('(')) return functionName;
  for (let up = parentOf.get(id); up !== undefined; up = parentOf.get(up)) {
    const caller = nodes.get(up)!.callFrame.url;
    if (caller !== '') return `${moduleOfUrl(caller)} (native)`;
  }
  return `${functionName} (native)`;
}

const selfMicros = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const module = moduleOf(id);
  selfMicros.set(module, (selfMicros.get(module) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const idle = selfMicros.get('(idle)') ?? 0;
const busy = [...selfMicros.values()].reduce((a, b) => a + b, 0) - idle;
console.log(`busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s; self time by module (share of busy):`);
for (const [module, micros] of [...selfMicros].filter(([m]) => m !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`${((micros / busy) * 100).toFixed(1).padStart(5)}%  ${(micros / 1e3).toFixed(0).padStart(7)} ms  ${module}`);
}
