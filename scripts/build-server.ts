/**
 * `npm run build`: compiles the server (tsconfig.build.json) into dist/ and stamps it with the
 * sources it was compiled from (bin/source-stamp.js), which bin/platform.js checks before running
 * it. The stamp is taken before compiling and written only when the compiler succeeds, so a source
 * edited during the build, or a failed build, leaves dist/ marked stale.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceStamp, stampFile } from '../bin/source-stamp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = sourceStamp(root);
rmSync(join(root, stampFile), { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, stampFile), `${stamp}\n`);
process.stderr.write('server compiled (dist/)\n');
