/** The sandbox's pure rules: which names a source imports, which are library names, bounded console text. */
import { describe, expect, it } from 'vitest';
import { importedNames, isLibraryName } from '../../shared/scripts/index.js';
import { ConsoleCapture } from '../../shared/scripts/sandbox/console-capture.js';

describe('importedNames', () => {
  it('finds static imports, re-exports and literal dynamic imports once each', () => {
    const source = "import a from 'one';\nimport { b } from 'two';\nexport * from 'three';\nexport { c } from 'one';\nexport async function main() { return import('four') }";
    expect(importedNames(source, 'script')).toEqual(['one', 'two', 'three', 'four']);
  });

  it('a syntax error names the module', () => {
    expect(() => importedNames('export function (', 'formatting')).toThrow(/^SyntaxError in formatting: /);
  });

  it('answers a source scanned before the same way (remembered per thread): its names as a fresh array, its syntax error naming the module asked about', () => {
    const source = "import x from 'again';\nexport function handle() { return x }";
    const first = importedNames(source, 'script');
    first.push('changed by the caller');
    expect(importedNames(source, 'script')).toEqual(['again']);
    expect(() => importedNames('export function (', 'other-module')).toThrow(/^SyntaxError in other-module: /);
  });
});

describe('isLibraryName', () => {
  it.each(['formatting', 'csv_tools', 'team.helpers', 'v2-lib'])('accepts %s', (name) => expect(isLibraryName(name)).toBe(true));
  it.each(['', './x', '../x', '/etc/passwd', 'node:fs', 'https://example.com/x.js', 'a\\b'])('refuses %s', (name) => expect(isLibraryName(name)).toBe(false));
});

describe('ConsoleCapture', () => {
  it('keeps lines up to the byte limit, cuts on a character, then one [truncated] line', () => {
    const capture = new ConsoleCapture(10);
    capture.write('log', 'hello');
    capture.write('log', 'ééééé');
    capture.write('log', 'dropped');
    expect(capture.text()).toBe('hello\né\n[truncated]');
    const levels = new ConsoleCapture(100);
    levels.write('warn', 'w');
    expect(levels.text()).toBe('[warn] w');
  });
});
