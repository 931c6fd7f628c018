import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The platform's package root: the nearest directory above the module at `moduleUrl` holding a
 * package.json. The same directory from the sources (`shared/toolchain/`) and from a compiled
 * build (`dist/shared/toolchain/`, which holds no package.json), where counting `..` would not be.
 */
export function packageRoot(moduleUrl: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${here}`);
  }
}
