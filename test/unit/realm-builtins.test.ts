/**
 * No module the platform loads replaces a built-in of the realm it runs in (docs/architecture.md,
 * "Modules that patch built-ins stay out of our realms"): pdf.js's legacy build did — its core-js
 * polyfills made Array.prototype.push 8× slower for the whole api — and any dependency could. A
 * fresh process loads every role's composition (api, worker, dev, activities) and compares the
 * built-ins polyfills replace with the ones it started with.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const probe = `
const watched = {
  'Array.prototype.push': Array.prototype.push, 'Array.prototype.includes': Array.prototype.includes, 'Array.from': Array.from,
  'JSON.parse': JSON.parse, 'JSON.stringify': JSON.stringify, 'Function.prototype.toString': Function.prototype.toString,
  'Object.assign': Object.assign, 'Object.keys': Object.keys, 'Promise': Promise, 'Promise.prototype.then': Promise.prototype.then,
  'Map': Map, 'Set': Set, 'String.prototype.replace': String.prototype.replace, 'RegExp.prototype.exec': RegExp.prototype.exec,
  'Symbol': Symbol, 'URL': URL, 'structuredClone': structuredClone, 'queueMicrotask': queueMicrotask,
};
for (const module of ['./cli/services.ts', './cli/dev.ts', './worker/index.ts', './activities/index.ts']) await import(module);
const read = (path) => path.split('.').reduce((at, key) => at[key], globalThis);
console.log(JSON.stringify(Object.keys(watched).filter((path) => read(path) !== watched[path])));
`;

describe("the platform's modules leave the realm's built-ins alone", () => {
  it('loading the api, worker and dev compositions replaces no built-in', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { cwd: process.cwd(), timeout: 120_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([]);
  });
});
