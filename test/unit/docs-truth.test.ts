/**
 * The README and docs/*.md against the code: every `npm run` command they give is a script of
 * package.json, every key of the README's configuration reference is a key of the config schema,
 * every key the schema modules declare as ours is documented in the README, every schema key is
 * documented somewhere, and every test file the docs cite exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configObjectSchema } from '../../shared/config/schema.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ path: `docs/${name}`, text: read(`docs/${name}`) }));
const prose = [{ path: 'README.md', text: readme }, ...docs];

/** Every file under `dir`, as paths relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length));
}

interface SchemaNode {
  _zod: { def: { type: string; shape?: Record<string, SchemaNode>; valueType?: SchemaNode; element?: SchemaNode; options?: SchemaNode[]; in?: SchemaNode; innerType?: SchemaNode } };
}

/** Every key path of the config schema: `a.b.c`, `<name>` for a map's entries, `[]` for a list's items. */
function schemaKeys(): Set<string> {
  const keys = new Set<string>();
  const walk = (node: SchemaNode, path: string): void => {
    const def = node._zod.def;
    if (def.type === 'object') {
      for (const [key, child] of Object.entries(def.shape!)) {
        const next = path ? `${path}.${key}` : key;
        keys.add(next);
        walk(child, next);
      }
    } else if (def.type === 'record') {
      keys.add(`${path}.<name>`);
      walk(def.valueType!, `${path}.<name>`);
    } else if (def.type === 'array') {
      keys.add(`${path}[]`);
      walk(def.element!, `${path}[]`);
    } else if (def.type === 'union') {
      for (const option of def.options!) walk(option, path);
    } else if (def.type === 'pipe') {
      walk(def.in!, path);
    } else if (def.innerType) {
      walk(def.innerType, path);
    }
  };
  walk(configObjectSchema as unknown as SchemaNode, '');
  return keys;
}

const keys = schemaKeys();

/**
 * The keys of one row of the README's "Keys of our own" table: its first cell's backticked names,
 * where a name without a dot is a sibling of the first (`temporal.tls.enabled` / `cert_file`).
 */
function rowKeys(cell: string): string[] {
  const names = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  const [first, ...rest] = names;
  if (!first) return [];
  const parent = first.slice(0, first.lastIndexOf('.'));
  return [first, ...rest.map((name) => (name.includes('.') ? name : `${parent}.${name}`))];
}

function readmeReferenceKeys(): string[] {
  const start = readme.indexOf('Keys of our own');
  const table = readme.slice(start).split('\n\n')[1] ?? '';
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => rowKeys(line.split('|')[1]!));
}

/**
 * The keys the schema modules' headers declare as ours (bullets `- a.b.c …` under "Keys this
 * implementation adds" and the like), with `<i>` written `<name>` as in the README.
 */
function declaredOwnKeys(): string[] {
  const topLevel = new Set([...keys].filter((key) => !/[.[]/.test(key)));
  return readdirSync(join(root, 'shared/config'))
    .filter((name) => /^schema.*\.ts$/.test(name))
    .flatMap((name) => {
      const header = read(`shared/config/${name}`).split('*/')[0]!;
      return [...header.matchAll(/^ \* - ([a-z_]+(?:\.[\w<>[\]]+)*)/gm)].map((m) => m[1]!.replace(/<i>/g, '<name>'));
    })
    .filter((key) => topLevel.has(key.split(/[.[]/)[0]!));
}

/** Documented in the README: the full key, or its last name in backticks (`driver: s3`, `engine`). */
function documentedInReadme(key: string): boolean {
  const last = key.split('.').at(-1)!.replace(/\[\]$/, '');
  return readme.includes(key) || readme.includes(`\`${last}\``) || readme.includes(`\`${last}:`);
}

describe('README and docs against the code', () => {
  it('every `npm run <script>` (and npm start / npm test) they give is a package.json script', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const missing = prose.flatMap(({ path, text }) =>
      [...text.matchAll(/\bnpm (?:run ([\w:.-]+)|(start|test)\b)/g)].map((m) => m[1] ?? m[2]!).filter((s) => !scripts.includes(s)).map((s) => `${path}: ${s}`),
    );
    expect(missing).toEqual([]);
  });

  it("every key of the README's configuration reference is a key of the config schema", () => {
    const referenced = readmeReferenceKeys();
    expect(referenced.length).toBeGreaterThan(30);
    expect(referenced.map((key) => key.replace(/ fields$/, '')).filter((key) => !keys.has(key))).toEqual([]);
  });

  it('every key the schema modules declare as ours exists and is documented in the README', () => {
    const declared = declaredOwnKeys();
    expect(declared).toEqual(expect.arrayContaining(['data_dir', 'temporal.address', 'server.body_read_timeout', 'scripts.fetch.allow_hosts']));
    expect(declared.filter((key) => !keys.has(key))).toEqual([]);
    expect(declared.filter((key) => !documentedInReadme(key))).toEqual([]);
  });

  it('every key of the config schema is documented: in platform.example.yaml, the README or docs/*.md (full path, YAML key or name in backticks)', () => {
    const example = read('platform.example.yaml');
    const spans = prose.flatMap(({ text }) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!));
    const text = prose.map((p) => p.text).join('\n');
    const documented = (key: string) => {
      const last = key.split('.').at(-1)!;
      const word = new RegExp(`(^|[^\\w])${last}($|[^\\w])`);
      const yamlKey = new RegExp(`(^|[\\s#-])${last}:`, 'm');
      return text.includes(key) || yamlKey.test(example) || yamlKey.test(text) || spans.some((span) => word.test(span));
    };
    // A map's entries and a list's items are documented with the map or list itself.
    const named = [...keys].filter((key) => !/(<name>|\[\])$/.test(key));
    expect(named.filter((key) => !documented(key))).toEqual([]);
  });

  it('every test file the docs cite exists', () => {
    const testFiles = filesUnder('test');
    const names = new Set(testFiles.map((path) => path.split('/').at(-1)!));
    const cited = prose.flatMap(({ path, text }) => [...text.matchAll(/[\w./-]+\.test\.ts/g)].map((m) => ({ path, file: m[0] })));
    expect(cited.length).toBeGreaterThan(10);
    const missing = cited.filter(({ file }) => (file.includes('/') ? !testFiles.includes(file) : !names.has(file)));
    expect(missing).toEqual([]);
  });

  it('a doc that speaks of `it.fails` tests has some to point at', () => {
    const failing = filesUnder('test').filter((path) => path.endsWith('.ts') && /\bit\.fails\(/.test(read(path)));
    const claims = prose.filter(({ text }) => /`it\.fails`/.test(text)).map(({ path }) => path);
    expect(failing.length > 0 || claims.length === 0, `${claims.join(', ')} cite it.fails tests, and there are none`).toBe(true);
  });
});
