#!/usr/bin/env node
// Runs the compiled CLI when `npm run build` has produced dist/ from the sources as they are now
// (bin/source-stamp.js), else the TypeScript sources through tsx. PLATFORM_FROM_SOURCE=1 always
// runs the sources.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { compiledBuildIsFresh } from './source-stamp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'cli', 'main.js');
const built = existsSync(compiled) && process.env.PLATFORM_FROM_SOURCE !== '1';
if (built && compiledBuildIsFresh(root)) {
  await import(pathToFileURL(compiled).href);
} else {
  if (built) process.stderr.write('dist/ was not compiled from the sources as they are now: running the sources (npm run build refreshes it)\n');
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'cli', 'main.ts')).href);
}
