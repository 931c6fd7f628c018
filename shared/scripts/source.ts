/**
 * What a script's source is, read without running it (pure): an ES module that acorn parses
 * (latest ecmaVersion), whose exports decide its kind — `main` and/or `handle` make a script,
 * neither a library — and whose imports may only name libraries. Names, sizes and import
 * specifiers are checked here too, so every surface refuses the same things with the same words.
 */
import { parse, type Node } from 'acorn';
import { ENTRY_POINTS, ScriptError, type EntryPoint, type SourceShape } from './types.js';

/** Largest source kept, in UTF-8 bytes: generous for hand-written code, small enough to load per run. */
export const MAX_SOURCE_BYTES = 256 * 1024;

/** Lowercase letters, digits, `-` and `_`, starting with a letter: never a path, URL or `node:` specifier. */
export const SCRIPT_NAME_PATTERN = /^[a-z][a-z0-9_-]*$/;
export const MAX_SCRIPT_NAME_LENGTH = 63;
/** Ids are UUIDs; a name never looks like one, so a single field may take either. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why `name` cannot name a script, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_SCRIPT_NAME_LENGTH) return `a script name has 1 to ${MAX_SCRIPT_NAME_LENGTH} characters`;
  if (!SCRIPT_NAME_PATTERN.test(name)) return 'a script name has lowercase letters, digits, - and _, and starts with a letter';
  if (UUID_PATTERN.test(name)) return 'a script name may not look like an id (a UUID)';
  return undefined;
}

export function checkName(name: string): void {
  const problem = nameProblem(name);
  if (problem) throw new ScriptError('invalid', `name "${name}": ${problem}`);
}

export function checkSize(source: string): void {
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > MAX_SOURCE_BYTES) {
    throw new ScriptError('too_large', `the source is ${bytes} bytes; a script's source may have at most ${MAX_SOURCE_BYTES} bytes (256 KiB)`, {
      limit_bytes: MAX_SOURCE_BYTES,
    });
  }
}

/** Why an import specifier is refused, or undefined for a library name. */
export function specifierProblem(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return 'Node built-ins are not available to scripts';
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return 'URLs cannot be imported: import a library by its name';
  if (specifier.startsWith('.') || specifier.startsWith('/')) return 'paths cannot be imported: import a library by its name';
  if (nameProblem(specifier)) return 'not a library name (lowercase letters, digits, - and _, starting with a letter)';
  return undefined;
}

interface AcornSyntaxError extends SyntaxError {
  loc?: { line: number; column: number };
}

/** The parsed module, or a syntax refusal at line:column (both 1-based, as editors count). */
function parseModule(source: string): Node {
  try {
    return parse(source, { sourceType: 'module', ecmaVersion: 'latest', locations: true });
  } catch (error) {
    const loc = (error as AcornSyntaxError).loc;
    if (!(error instanceof SyntaxError) || !loc) throw error;
    const line = loc.line;
    const column = loc.column + 1;
    // acorn appends "(line:column)" with a 0-based column; ours replaces it.
    const reason = error.message.replace(/\s*\(\d+:\d+\)$/, '');
    throw new ScriptError('syntax', `syntax error at ${line}:${column}: ${reason}`, { line, column });
  }
}

type AnyNode = Node & Record<string, unknown>;

/** Every node of the tree, depth first (acorn-walk is not a dependency; the generic walk needs no node table). */
function* nodes(node: AnyNode): Generator<AnyNode> {
  yield node;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield* nodes(item);
    } else if (isNode(value)) {
      yield* nodes(value);
    }
  }
}

function isNode(value: unknown): value is AnyNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function exportedName(node: AnyNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.name as string;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  return undefined;
}

/** Names a top-level `export <declaration>` binds (functions, classes, every declared variable). */
function declaredNames(declaration: AnyNode): string[] {
  if (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') {
    return [exportedName(declaration.id as AnyNode)].filter((n): n is string => n !== undefined);
  }
  if (declaration.type === 'VariableDeclaration') {
    return (declaration.declarations as AnyNode[]).flatMap((d) => [...nodes(d.id as AnyNode)].filter((n) => n.type === 'Identifier').map((n) => n.name as string));
  }
  return [];
}

/**
 * Reads a source: syntax (400 with line:column), exports (its kind) and imports (each a library
 * name; relative, URL and `node:` specifiers refused with the reason). Dynamic `import()` must
 * name its library with a string literal, so every library a script can load is known at save.
 */
export function analyzeSource(source: string): SourceShape {
  checkSize(source);
  const program = parseModule(source) as AnyNode;
  const exported = new Set<string>();
  const imports: string[] = [];
  const addImport = (specifier: unknown, at: AnyNode) => {
    const line = (at.loc as { start: { line: number } } | undefined)?.start.line;
    if (typeof specifier !== 'string') {
      throw new ScriptError('invalid', `import() at line ${line}: name the library with a string literal, e.g. import('formatting')`, { line });
    }
    const problem = specifierProblem(specifier);
    if (problem) throw new ScriptError('invalid', `import "${specifier}" at line ${line}: ${problem}`, { line, specifier });
    if (!imports.includes(specifier)) imports.push(specifier);
  };
  for (const statement of program.body as AnyNode[]) {
    if (statement.type === 'ExportNamedDeclaration') {
      if (statement.declaration) for (const name of declaredNames(statement.declaration as AnyNode)) exported.add(name);
      for (const specifier of (statement.specifiers as AnyNode[]) ?? []) {
        const name = exportedName(specifier.exported as AnyNode);
        if (name) exported.add(name);
      }
    }
  }
  for (const node of nodes(program)) {
    if (node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || (node.type === 'ExportNamedDeclaration' && node.source)) {
      addImport((node.source as AnyNode).value, node);
    } else if (node.type === 'ImportExpression') {
      const argument = node.source as AnyNode;
      addImport(argument.type === 'Literal' ? argument.value : undefined, node);
    }
  }
  const entryPoints = ENTRY_POINTS.filter((name): name is EntryPoint => exported.has(name));
  return { kind: entryPoints.length > 0 ? 'script' : 'library', entryPoints, imports };
}
