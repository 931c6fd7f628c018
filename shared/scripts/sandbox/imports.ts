/**
 * A script's import graph, resolved before the run starts: QuickJS loads modules synchronously, and
 * libraries come from the script store asynchronously, so every library the script reaches through
 * `import … from 'name'`, `export … from 'name'` or `import('name')` (a literal name) is fetched
 * first. Names only: no relative paths, no URLs, no `node:` modules. An unknown name or a cycle is
 * an error naming the modules involved.
 */
import { parse, type Node } from 'acorn';

/** The name the entry script has in errors and stack traces. */
export const scriptModuleName = 'script';

export class ImportError extends Error {}

/** Library names are plain names: anything path- or URL-like could mean a file or the network. */
export function isLibraryName(name: string): boolean {
  return name.length > 0 && !/^[./\\]/.test(name) && !name.includes(':') && !name.includes('\\');
}

/**
 * Sources scanned lately, and what they import (or their syntax error): an endpoint runs the same
 * source on every request, and parsing a sizeable one costs milliseconds. Bounded, least recently
 * used first out; per thread.
 */
const scanned = new Map<string, string[] | { syntaxError: string }>();
const scannedMax = 64;

/** The module names a source imports, in order of appearance; a syntax error names the module. */
export function importedNames(source: string, moduleName: string): string[] {
  return [...scannedImports(source, moduleName)];
}

/** importedNames without the copy (the cached array: never to be changed). */
function scannedImports(source: string, moduleName: string): readonly string[] {
  let names = scanned.get(source);
  if (names === undefined) {
    names = scanImports(source);
    if (scanned.size >= scannedMax) scanned.delete(scanned.keys().next().value!);
  } else {
    scanned.delete(source);
  }
  scanned.set(source, names);
  if (!Array.isArray(names)) throw new ImportError(`SyntaxError in ${moduleName}: ${names.syntaxError}`);
  return names;
}

function scanImports(source: string): string[] | { syntaxError: string } {
  let program: Node;
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'module' });
  } catch (err) {
    return { syntaxError: (err as Error).message };
  }
  const names: string[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const n = node as { type?: string; source?: { type: string; value: unknown } | null };
    const literal = n.source?.type === 'Literal' && typeof n.source.value === 'string' ? n.source.value : undefined;
    if (literal !== undefined && /^(ImportDeclaration|ExportNamedDeclaration|ExportAllDeclaration|ImportExpression)$/.test(n.type ?? '')) names.push(literal);
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') visit(value);
  };
  visit(program);
  return [...new Set(names)];
}

/** Where libraries come from: a library's source by name, or undefined when there is none. */
export interface LibrarySource {
  library(name: string): Promise<string | undefined>;
}

/** What a script that imports nothing reaches (shared: never changed). */
const noLibraries: ReadonlyMap<string, string> = new Map();

/**
 * Every library the script reaches, by name, with its source. Fails on a name that is not a
 * library name, a library `from` does not know, a syntax error, or an import cycle. A script
 * that imports nothing is answered at once (no promise): the common handler's run stays synchronous.
 */
export function collectLibraries(source: string, from: LibrarySource): ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>> {
  const names = scannedImports(source, scriptModuleName);
  return names.length === 0 ? noLibraries : collectImported(source, names, from);
}

async function collectImported(source: string, names: readonly string[], from: LibrarySource): Promise<Map<string, string>> {
  const libraries = new Map<string, string>();
  const done = new Set<string>();
  const visit = async (moduleName: string, moduleSource: string, path: string[], imported = scannedImports(moduleSource, moduleName)): Promise<void> => {
    for (const name of imported) {
      if (!isLibraryName(name)) throw new ImportError(`${moduleName} imports '${name}': scripts import libraries by name (no paths, URLs or node modules)`);
      if (path.includes(name)) throw new ImportError(`import cycle: ${[...path, name].join(' -> ')}`);
      if (done.has(name)) continue;
      let librarySource = libraries.get(name);
      if (librarySource === undefined) {
        librarySource = await from.library(name);
        if (librarySource === undefined) throw new ImportError(`${moduleName} imports unknown library '${name}'`);
        libraries.set(name, librarySource);
      }
      await visit(name, librarySource, [...path, name]);
      done.add(name);
    }
  };
  await visit(scriptModuleName, source, [scriptModuleName], names);
  return libraries;
}
