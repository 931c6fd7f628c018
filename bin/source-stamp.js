// The compiled build's freshness: a stamp of the sources it was compiled from (each TypeScript
// file's path, size and modification time, and the compiler settings), written into dist/ by
// `npm run build` and compared by bin/platform.js before it runs dist/, so an edit made after a
// build is never served by stale compiled code. Plain JavaScript: it runs before tsx is loaded.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What tsconfig.build.json compiles, and the settings it compiles them with. */
const sourceDirs = ['api', 'cli', 'shared', 'worker', 'workflows', 'activities'];
const settings = ['tsconfig.json', 'tsconfig.build.json'];

export const stampFile = join('dist', '.source-stamp');

function filesUnder(dir, found) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') filesUnder(path, found);
    } else if (entry.name.endsWith('.ts')) found.push(path);
  }
  return found;
}

/** The stamp of the sources under `root` as they are now. */
export function sourceStamp(root) {
  const files = [...settings.map((name) => join(root, name)).filter((path) => existsSync(path))];
  for (const dir of sourceDirs) if (existsSync(join(root, dir))) filesUnder(join(root, dir), files);
  const lines = files.map((path) => {
    const { size, mtimeMs } = statSync(path);
    return `${relative(root, path)}\t${size}\t${mtimeMs}`;
  });
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

/** Whether dist/ under `root` was compiled from the sources as they are now. */
export function compiledBuildIsFresh(root) {
  const file = join(root, stampFile);
  return existsSync(file) && readFileSync(file, 'utf8').trim() === sourceStamp(root);
}
