import { describe, expect, it } from 'vitest';
import {
  analyzeSource,
  MAX_SOURCE_BYTES,
  mayManageScripts,
  nameProblem,
  scriptActions,
  scriptActor,
  ScriptError,
  specifierProblem,
  transition,
  type ScriptActor,
  type ScriptState,
} from '../../shared/scripts/index.js';
import { parseConfig } from '../../shared/config/index.js';

function refusal(fn: () => unknown): ScriptError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ScriptError) return error;
    throw error;
  }
  throw new Error('expected a ScriptError');
}

describe('script kind from exports', () => {
  it.each([
    ['export function main() {}', ['main']],
    ['export async function handle(req) { return req }', ['handle']],
    ['export const main = () => 1', ['main']],
    ['function main() {}\nexport { main }', ['main']],
    ['function run() {}\nexport { run as handle, run as main }', ['main', 'handle']],
    ['export let { main } = { main() {} }', ['main']],
  ])('%j is a script exporting %j', (source, entryPoints) => {
    expect(analyzeSource(source)).toEqual({ kind: 'script', entryPoints, imports: [] });
  });

  it('a module exporting neither main nor handle is a library', () => {
    expect(analyzeSource('export function fmt(x) { return String(x) }\nexport default 1')).toEqual({ kind: 'library', entryPoints: [], imports: [] });
  });

  it('a default export named main does not make a script (main must be a named export)', () => {
    expect(analyzeSource('export default function main() {}').kind).toBe('library');
  });

  it('a main that is only declared, not exported, does not count', () => {
    expect(analyzeSource('function main() {}').kind).toBe('library');
  });
});

describe('syntax', () => {
  it('a syntax error is refused with line:column (1-based)', () => {
    const error = refusal(() => analyzeSource('export function main() {\n  return 1 +;\n}'));
    expect(error.code).toBe('syntax');
    expect(error.details).toEqual({ line: 2, column: 13 });
    expect(error.message).toMatch(/^syntax error at 2:13: Unexpected token$/);
  });

  it('parses as a module with the latest syntax (top-level await, private fields)', () => {
    expect(analyzeSource('class A { #x = 1 }\nawait Promise.resolve()\nexport const main = () => new A()').kind).toBe('script');
  });

  it('a source over 256 KiB is refused as too large', () => {
    const error = refusal(() => analyzeSource(`// ${'x'.repeat(MAX_SOURCE_BYTES)}`));
    expect(error.code).toBe('too_large');
    expect(error.details).toEqual({ limit_bytes: MAX_SOURCE_BYTES });
  });
});

describe('imports', () => {
  it('collects library names from imports, re-exports and literal import()', () => {
    const source = `import { fmt } from 'formatting'\nexport * from 'dates'\nexport { x } from 'formatting'\nexport async function main() { return import('geo') }`;
    expect(analyzeSource(source).imports).toEqual(['formatting', 'dates', 'geo']);
  });

  it.each([
    ['./lib', /paths cannot be imported/],
    ['../lib.js', /paths cannot be imported/],
    ['/abs', /paths cannot be imported/],
    ['https://example.com/x.js', /URLs cannot be imported/],
    ['data:text/javascript,1', /URLs cannot be imported/],
    ['node:fs', /Node built-ins are not available/],
    ['Lib', /not a library name/],
  ])('refuses %j with the reason', (specifier, reason) => {
    expect(specifierProblem(specifier)).toMatch(reason);
    const error = refusal(() => analyzeSource(`import x from '${specifier}'\nexport function main() {}`));
    expect(error.code).toBe('invalid');
    expect(error.message).toMatch(reason);
    expect(error.details).toMatchObject({ line: 1, specifier });
  });

  it('import() must name its library with a string literal', () => {
    const error = refusal(() => analyzeSource("export async function main() {\n  const n = 'x'\n  return import(n)\n}"));
    expect(error.message).toMatch(/import\(\) at line 3: name the library with a string literal/);
  });
});

describe('names', () => {
  it.each(['formatting', 'a', 'daily-report_2', 'x'.repeat(63)])('accepts %j', (name) => expect(nameProblem(name)).toBeUndefined());
  it.each(['', 'Report', '1st', 'a.b', 'a/b', 'node:fs', 'x'.repeat(64), '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', 'abcdef01-c3d4-7e5f-8a9b-0c1d2e3f4a5b'])(
    'refuses %j',
    (name) => expect(nameProblem(name)).toBeDefined(),
  );
});

describe('state transitions', () => {
  const script = (state: ScriptState, supersededBy?: string) => ({ id: 'a', name: 'a', kind: 'script' as const, state, ...(supersededBy ? { supersededBy } : {}) });
  const active = { id: 'b', name: 'b', kind: 'script' as const, state: 'active' as const };

  it.each([
    ['active', 'disable', 'disabled'],
    ['deprecated', 'disable', 'disabled'],
    ['disabled', 'enable', 'active'],
    ['deprecated', 'enable', 'active'],
    ['superseded', 'enable', 'active'],
    ['active', 'deprecate', 'deprecated'],
    ['disabled', 'deprecate', 'deprecated'],
  ] as const)('%s --%s--> %s', (from, action, to) => {
    expect(transition(script(from, from === 'superseded' ? 'b' : undefined), action)).toEqual({ to, changes: true });
  });

  it.each([
    ['superseded', 'disable'],
    ['superseded', 'deprecate'],
  ] as const)('%s refuses %s as a state conflict', (from, action) => {
    expect(refusal(() => transition(script(from, 'b'), action)).code).toBe('state');
  });

  it('asking for the current state changes nothing', () => {
    expect(transition(script('disabled'), 'disable')).toEqual({ to: 'disabled', changes: false });
    expect(transition(script('active'), 'enable')).toEqual({ to: 'active', changes: false });
    expect(transition(script('superseded', 'b'), 'supersede', active)).toEqual({ to: 'superseded', changes: false });
  });

  it.each(['active', 'disabled', 'deprecated'] as const)('%s is superseded by an active script of the same kind', (from) => {
    expect(transition(script(from), 'supersede', active)).toEqual({ to: 'superseded', changes: true });
  });

  it('a superseded script may be pointed at another replacement', () => {
    expect(transition(script('superseded', 'c'), 'supersede', active)).toEqual({ to: 'superseded', changes: true });
  });

  it('refuses a replacement that is not active, of another kind, or itself', () => {
    expect(refusal(() => transition(script('active'), 'supersede', { ...active, state: 'deprecated' })).message).toMatch(/only an active script can supersede/);
    expect(refusal(() => transition(script('active'), 'supersede', { ...active, kind: 'library' })).message).toMatch(/of the same kind/);
    expect(refusal(() => transition(script('active'), 'supersede', { ...active, id: 'a' })).message).toMatch(/cannot supersede itself/);
    expect(refusal(() => transition(script('active'), 'supersede')).code).toBe('invalid');
  });
});

describe('authority', () => {
  const config = parseConfig(
    `
admin:
  persona: admin
personas:
  definitions:
    staff: { roles: [staff] }
    admin: { roles: [admin] }
`,
    {},
  ).config;
  const actor = (subject: string, roles: string[], authType = 'apikey'): ScriptActor =>
    scriptActor({ subject, roles, authType: authType as 'apikey' }, config);
  const owned = (kind: 'script' | 'library') => ({ name: 'n', kind, ownerSubject: 'alice' });

  it('the owner changes and reads its script', () => {
    expect(scriptActions(actor('alice', ['staff']), owned('script'))).toEqual({ change: true, read_source: true });
  });

  it("another user neither changes nor reads a script's source, but reads a library's", () => {
    expect(scriptActions(actor('bob', ['staff']), owned('script'))).toEqual({ change: false, read_source: false });
    expect(scriptActions(actor('bob', ['staff']), owned('library'))).toEqual({ change: false, read_source: true });
  });

  it('administrators (admin.persona members, the local operator) change anyone’s script', () => {
    expect(actor('root', ['admin']).platformAdmin).toBe(true);
    expect(scriptActions(actor('root', ['admin']), owned('script'))).toEqual({ change: true, read_source: true });
    expect(scriptActions(actor('local', [], 'local'), owned('script')).change).toBe(true);
  });

  it('an anonymous caller owns nothing, even under the shared anonymous subject', () => {
    expect(scriptActions(actor('alice', [], 'anonymous'), owned('script')).change).toBe(false);
  });

  it('the persona rule for manage_script admits callers to scripts; the local operator always', () => {
    const gated = parseConfig(
      `
personas:
  definitions:
    staff: { roles: [staff], tools: { allow: ["manage_*"] } }
    viewer: { roles: [viewer], tools: { allow: ["sql_*"] } }
    blocked: { roles: [blocked], tools: { allow: ["*"], deny: ["manage_script"] } }
`,
      {},
    ).config;
    const caller = (roles: string[], authType: 'apikey' | 'local' = 'apikey') => ({ subject: 's', roles, authType });
    expect(mayManageScripts(caller(['staff']), gated)).toBe(true);
    expect(mayManageScripts(caller(['viewer']), gated)).toBe(false);
    expect(mayManageScripts(caller(['blocked']), gated)).toBe(false);
    expect(mayManageScripts(caller([]), gated)).toBe(false);
    expect(mayManageScripts(caller([], 'local'), gated)).toBe(true);
  });

  it('records the roles the caller holds', () => {
    expect(actor('alice', ['staff', 'x']).roles).toEqual(['staff', 'x']);
  });
});
