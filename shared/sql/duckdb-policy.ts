/**
 * What SQL may call on the embedded DuckDB, on every connection and every tool (pure rules; the
 * engine worker applies them before DuckDB prepares anything).
 *
 * DuckDB keeps process-wide state that no caller's statement should touch: its log (enable_logging,
 * duckdb_logs, write_log), profiling, checkpoints, settings (duckdb_settings, current_setting),
 * secrets, extensions, attached databases and their files, memory and temporary files. Its own
 * locks cover part of it (`enable_external_access=false`, `lock_configuration`), but not the table
 * functions, and DuckDB always lets SQL read its own database file, WAL and temp directory.
 *
 * So table functions and PRAGMAs are an allow-list: a built-in one not listed here is refused. A
 * scalar function is allowed when DuckDB declares it free of side effects, or its side effect stays
 * in the calling statement (random, nextval …); `current_setting` reads settings and is refused.
 * Built-in views and scalar macros are refused when their own SQL calls something refused (so
 * `duckdb_databases`, `pg_settings` follow `duckdb_databases()`, `duckdb_settings()`). Names are
 * judged from the lexer's tokens, so a comment or a string cannot hide a call, and a string can
 * never name the engine's own files. Paths given to file readers and COPY must be literals, so no
 * expression can build such a name either.
 */
import path from 'node:path';
import { identifier, isPunct, isWord, splitStatements, tokenize, type Token } from './lexer.js';
import { platformSchemaRefusal } from './platform-objects.js';

/**
 * Schema of the platform's own bookkeeping in a DuckDB file (the scratch metastore): a caller's
 * statement may not name it, so no one can point a scratch table at other storage or drop the record.
 */
export const PLATFORM_SCHEMA = 'platform_scratch';

/**
 * Macros the platform defines in every DuckDB file (duckdb-worker.ts): a statement that changes
 * data may not define, replace or drop them.
 */
export const PLATFORM_MACROS: readonly string[] = ['json_extract_scalar'];

/**
 * What shows the SQL of views: the platform's views over its storage hold absolute paths and the
 * ids of the files they read. The function and the built-in views that pass its `sql` column on
 * are refused; other views built on it (information_schema.tables …) stay, as they show names only.
 */
const definitionFunctions = new Set(['duckdb_views']);
const definitionViews = new Set(['duckdb_views', 'pg_views', 'sqlite_master', 'sqlite_schema', 'sqlite_temp_master', 'sqlite_temp_schema', 'information_schema.views']);

/** Table functions a statement may call: generators, JSON, this database's catalog, file readers. */
const allowedTableFunctions = new Set([
  'range', 'generate_series', 'unnest', 'repeat', 'repeat_row', 'json_each', 'json_tree', 'summary',
  'duckdb_columns', 'duckdb_constraints', 'duckdb_dependencies', 'duckdb_functions', 'duckdb_indexes', 'duckdb_keywords',
  'duckdb_schemas', 'duckdb_sequences', 'duckdb_tables', 'duckdb_types',
  'pragma_table_info', 'pragma_show', 'pragma_collations', 'pragma_version', 'pragma_platform',
  'pg_timezone_names', 'icu_calendar_names',
]);

/**
 * File readers. DuckDB's own lock decides which files exist for them (only the directories the
 * platform opens); their path must be a literal, so the check on strings below sees it.
 */
const fileReaders = new Set([
  'read_csv', 'read_csv_auto', 'read_json', 'read_json_auto', 'read_json_objects', 'read_json_objects_auto',
  'read_ndjson', 'read_ndjson_auto', 'read_ndjson_objects', 'read_parquet', 'parquet_scan', 'parquet_metadata',
  'parquet_schema', 'parquet_file_metadata', 'parquet_kv_metadata', 'sniff_csv', 'glob', 'read_text', 'read_blob',
]);

/** PRAGMAs that only describe this database's tables and functions (DuckDB rewrites them to SELECTs). */
const allowedPragmas = new Set(['table_info', 'show', 'show_tables', 'show_tables_expanded', 'show_databases', 'functions', 'collations', 'version', 'platform']);

/** Scalar functions DuckDB marks as having side effects, whose effect stays within the calling statement. */
const statementLocalEffects = new Set([
  'random', 'setseed', 'uuid', 'uuidv4', 'uuidv7', 'gen_random_uuid', 'nextval', 'currval', 'error', 'stats',
  'current_query', 'current_query_id', 'current_connection_id', 'current_transaction_id',
]);

/** Side-effect-free scalar functions that read the engine's settings. */
const settingReaders = new Set(['current_setting']);

/** A built-in function as `duckdb_functions()` lists it. */
export interface CatalogFunction {
  name: string;
  /** scalar, aggregate, macro, table, table_macro, pragma */
  type: string;
  sideEffects: boolean;
  /** Macros: the body. */
  definition?: string | null;
}

/** A built-in view as `duckdb_views()` lists it. */
export interface CatalogView {
  name: string;
  sql: string;
}

/** Built-in names a statement may not use, lower case. */
export interface Refusals {
  /** Names that may not be called (`name(`) anywhere. */
  calls: ReadonlySet<string>;
  /**
   * Refused table functions that share their name with an allowed scalar or aggregate (the
   * `histogram` table macro runs dynamic SQL; the `histogram` aggregate is fine): refused where a
   * table goes (after FROM, JOIN, …), allowed in expressions.
   */
  tableCalls: ReadonlySet<string>;
  /** Views that may not be read (`schema.view` where only the qualified name is meant). */
  relations: ReadonlySet<string>;
  /** Functions and views that show object definitions (definitionFunctions, definitionViews). */
  definitions: ReadonlySet<string>;
  /** Names that may not follow PRAGMA. */
  pragmas: ReadonlySet<string>;
}

/**
 * The refused names of this DuckDB build, from its own catalog: every table function and PRAGMA not
 * on the allow-lists, scalar functions with side effects beyond the statement, setting readers, and
 * every built-in macro or view whose SQL uses a refused name (to a fixpoint).
 */
export function deriveRefusals(functions: readonly CatalogFunction[], views: readonly CatalogView[]): Refusals {
  const calls = new Set<string>();
  const tables = new Set<string>();
  const pragmas = new Set<string>();
  const scalars = new Set<string>();
  for (const f of functions) {
    const name = f.name.toLowerCase();
    if (definitionFunctions.has(name)) continue; // refused on its own below, without tainting views that only list names
    if (f.type === 'pragma') {
      if (!allowedPragmas.has(name)) pragmas.add(name);
    } else if (f.type === 'table' || f.type === 'table_macro') {
      if (!allowedTableFunctions.has(name) && !fileReaders.has(name)) tables.add(name);
    } else if ((f.sideEffects && !statementLocalEffects.has(name)) || settingReaders.has(name)) {
      calls.add(name);
    } else {
      scalars.add(name);
    }
  }
  // A refused table function is refused anywhere, unless an allowed scalar shares its name.
  const tableCalls = new Set([...tables].filter((name) => scalars.has(name) && !calls.has(name)));
  for (const name of tables) if (!tableCalls.has(name)) calls.add(name);
  const relations = new Set<string>();
  const bodies = [
    // Scalar macros follow their bodies (table macros are table functions: on the allow-list or not).
    ...functions.filter((f) => f.definition && f.type === 'macro').map((f) => ({ name: f.name.toLowerCase(), sql: f.definition!, into: calls })),
    ...views.map((v) => ({ name: v.name.toLowerCase(), sql: v.sql, into: relations })),
  ].map((b) => ({ ...b, tokens: safeTokens(b.sql) }));
  const refusals = { calls, tableCalls, relations, pragmas, definitions: new Set<string>() };
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of bodies) {
      if (b.into.has(b.name)) continue;
      if (b.tokens === undefined || refusedName(b.tokens, refusals) !== undefined) {
        b.into.add(b.name);
        changed = true;
      }
    }
  }
  return { ...refusals, definitions: new Set([...definitionFunctions, ...definitionViews]) };
}

function safeTokens(sql: string): Token[] | undefined {
  try {
    return tokenize(sql, 'duckdb');
  } catch {
    return undefined; // a body we cannot read is refused
  }
}

/** Where the engine's own files are, to refuse strings that name them. */
export interface PrivatePaths {
  /** Absolute path prefixes: the database file (its WAL and `<file>.tmp` share the prefix), the temp directory, the platform's storage. */
  prefixes: readonly string[];
  /** The engine process's working directory (relative paths resolve against it) and home (`~`). */
  cwd: string;
  home: string;
}

/** Why DuckDB must not run these tokens, or undefined. */
export function policyRefusal(tokens: readonly Token[], refusals: Refusals, paths: PrivatePaths): string | undefined {
  for (const statement of splitStatements(tokens)) {
    const refusal = refusedName(statement, refusals) ?? refusedCopy(statement) ?? refusedPath(statement, paths);
    if (refusal) return refusal;
  }
  return undefined;
}

const stateReason = 'it reads or changes engine-wide state';
const definitionReason = "it shows the SQL of views, which holds the server's paths: list views with sql_browse or information_schema.tables";

/** Words after which a table goes (a call there is a table function), and words that end that. */
const tableStarts = new Set(['FROM', 'JOIN', 'LATERAL', 'USING', 'CALL', 'PIVOT', 'UNPIVOT', 'DESCRIBE', 'DESC', 'SUMMARIZE', 'SHOW', 'TABLE']);
const tableEnds = new Set(['SELECT', 'WHERE', 'GROUP', 'HAVING', 'QUALIFY', 'WINDOW', 'ORDER', 'LIMIT', 'OFFSET', 'UNION', 'INTERSECT', 'EXCEPT', 'ON', 'SET', 'VALUES', 'RETURNING']);

function refusedName(tokens: readonly Token[], refusals: Refusals): string | undefined {
  // Per parenthesis depth: whether a table goes here. A call's arguments are expressions; any
  // other parenthesis keeps its context (`FROM (histogram(…))` is still a table).
  const tablePosition = [false];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) {
      const prev = tokens[i - 1];
      const callArgs = prev !== undefined && identifier(prev) !== undefined && !(prev.type === 'word' && tableStarts.has(prev.upper));
      tablePosition.push(!callArgs && tablePosition.at(-1)!);
      continue;
    }
    if (isPunct(t, ')')) {
      if (tablePosition.length > 1) tablePosition.pop();
      continue;
    }
    if (t.type === 'word' && tableStarts.has(t.upper)) tablePosition[tablePosition.length - 1] = true;
    else if (t.type === 'word' && tableEnds.has(t.upper)) tablePosition[tablePosition.length - 1] = false;
    const name = identifier(t);
    if (name === undefined) continue;
    if (name === PLATFORM_SCHEMA) return `${name} is reserved for the platform's own records`;
    const qualified = isPunct(tokens[i - 1], '.') ? `${identifier(tokens[i - 2]) ?? ''}.${name}` : name;
    if (!isPunct(tokens[i + 1], '.') && (refusals.definitions.has(name) || refusals.definitions.has(qualified))) return `${qualified} is not available: ${definitionReason}`;
    if (isWord(tokens[i - 1], 'PRAGMA')) {
      if (refusals.pragmas.has(name)) return `PRAGMA ${name} is not available: ${stateReason}`;
    } else if (isPunct(tokens[i + 1], '(')) {
      if (refusals.calls.has(name) || (refusals.tableCalls.has(name) && tablePosition.at(-1))) return `${name}() is not available: ${stateReason}`;
      if (fileReaders.has(name) && !literalPathAt(tokens, i + 2, (t) => isPunct(t, ',', ')'))) return `${name}() takes its file path as a literal string`;
    } else if (refusals.relations.has(name)) {
      return `${name} is not available: ${stateReason}`;
    }
  }
  return undefined;
}

/**
 * Why input holding a statement that changes data may not run because it names an object the
 * platform manages, or undefined: its schemas (platform-objects.ts) and its macros (with MACRO or
 * FUNCTION: created, replaced or dropped; calling them stays open).
 */
export function platformObjectRefusal(tokens: readonly Token[], platformSchemas: readonly string[]): string | undefined {
  const schema = platformSchemaRefusal(tokens, platformSchemas);
  if (schema) return schema;
  if (!tokens.some((t) => isWord(t, 'MACRO') || isWord(t, 'FUNCTION'))) return undefined;
  const macro = tokens.map(identifier).find((name) => name !== undefined && PLATFORM_MACROS.includes(name));
  return macro === undefined ? undefined : `${macro} is defined by the platform: a statement may not create, replace or drop it`;
}

/** COPY's file (after its top-level TO or FROM) must be a literal: `TO ('/a' || 'b')` is an expression. */
function refusedCopy(tokens: readonly Token[]): string | undefined {
  if (!isWord(tokens[0], 'COPY')) return undefined;
  let depth = 0;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && (isWord(t, 'TO') || isWord(t, 'FROM'))) {
      // Options follow the file: `(FORMAT csv)`, `WITH (…)`, or nothing.
      return literalPathAt(tokens, i + 1, (after) => after === undefined || isPunct(after, '(') || after.type === 'word')
        ? undefined
        : 'COPY takes its file path as a literal string';
    }
  }
  return undefined;
}

/** A literal path at `i` (adjacent string literals, or a list of them) followed by what `ends` accepts. */
function literalPathAt(tokens: readonly Token[], i: number, ends: (after: Token | undefined) => boolean): boolean {
  const strings = (j: number) => {
    let k = j;
    while (tokens[k]?.type === 'string') k++;
    return k > j ? k : -1;
  };
  let end = i;
  if (isPunct(tokens[i], '[')) {
    do {
      end = strings(end + 1);
      if (end < 0) return false;
    } while (isPunct(tokens[end], ','));
    if (!isPunct(tokens[end], ']')) return false;
    end++;
  } else {
    end = strings(i);
    if (end < 0) return false;
  }
  return ends(tokens[end]);
}

function refusedPath(tokens: readonly Token[], paths: PrivatePaths): string | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    let value: string | undefined;
    if (t.type === 'string') {
      // Adjacent literals are one string to DuckDB ('a'\n'b' is 'ab').
      value = '';
      while (tokens[i]?.type === 'string') value += stringValue(tokens[i++]!.text);
      i--;
    } else if (t.type === 'quoted' && t.text.startsWith('"')) {
      value = t.text.slice(1, -1).replaceAll('""', '"');
    }
    if (value !== undefined && isPrivatePath(value, paths)) return "the engine's own files and the platform's storage cannot be named in SQL";
  }
  return undefined;
}

/** The value of a string literal token: '…' (doubled quotes), E'…' (backslash escapes), $tag$…$tag$. */
export function stringValue(text: string): string {
  if (text.startsWith('$')) {
    const tag = text.slice(0, text.indexOf('$', 1) + 1);
    return text.slice(tag.length, text.length - tag.length);
  }
  if (text[0] === 'E' || text[0] === 'e') return unescape(text.slice(2, -1));
  return text.slice(1, -1).replaceAll("''", "'");
}

/** PostgreSQL escape-string rules, as DuckDB applies them. */
function unescape(body: string): string {
  const simple: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return body.replace(/''|\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)/gs, (m, e: string | undefined) => {
    if (e === undefined) return "'";
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return simple[e] ?? e;
  });
}

/**
 * Whether DuckDB would read `value` as (a path inside) one of the engine's own files, or as a glob
 * pattern (`*`, `?`, `[`, `{` after a `/`) that could match them: its fixed part leads to them.
 */
export function isPrivatePath(value: string, paths: PrivatePaths): boolean {
  let p = value.replace(/^file:(\/\/)?/i, '');
  if (p === '~' || p.startsWith('~/')) p = paths.home + p.slice(1);
  const resolved = path.resolve(paths.cwd, p);
  if (paths.prefixes.some((prefix) => resolved.startsWith(prefix))) return true;
  const glob = p.search(/[*?[{]/);
  if (glob < 0 || !p.slice(0, glob).includes('/')) return false;
  const base = path.resolve(paths.cwd, p.slice(0, glob));
  return paths.prefixes.some((prefix) => prefix.startsWith(base));
}

/**
 * A result's values without the engine's own files and the platform's storage: every string that
 * holds one of `prefixes` has the path (up to a quote, space, comma or bracket) replaced by
 * `<path>`, inside lists and structs too. The second wall behind the refusals of what shows view
 * definitions and settings: whatever else may carry a path, an answer does not.
 */
export function privatePathScrubber(prefixes: readonly string[]): (value: unknown) => unknown {
  const kept = [...new Set(prefixes)].filter((p) => p.length > 1).sort((a, b) => b.length - a.length);
  if (kept.length === 0) return (value) => value;
  const pattern = new RegExp(`(?:${kept.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[^'"\\s,;()\\[\\]{}]*`, 'g');
  // A string shorter than every prefix holds none (most values of a result: codes, names, words).
  const shortest = kept[kept.length - 1]!.length;
  // Rows are built fresh for each result (duckdb-values.ts), so they are scrubbed in place: every
  // row of every result passes here, and rebuilding each object cost an allocation per value.
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return value.length < shortest ? value : value.replace(pattern, '<path>');
    if (value !== null && typeof value === 'object') {
      const fields = value as Record<string, unknown>;
      for (const key of Object.keys(fields)) {
        const field = fields[key];
        const scrubbed = scrub(field);
        if (scrubbed !== field) fields[key] = scrubbed;
      }
    }
    return value;
  };
  return scrub;
}

/**
 * An engine message without the server's file locations: the given paths (longest first) and any
 * quoted absolute path (DuckDB quotes the files it names, and echoes the statement) become `<path>`.
 */
export function scrubPaths(message: string, known: readonly string[]): string {
  let out = message;
  for (const p of [...new Set(known)].filter((k) => k.length > 1).sort((a, b) => b.length - a.length)) out = out.replaceAll(p, '<path>');
  return out.replace(/"(?:\/|~\/|file:)[^"\n]*"/g, '"<path>"').replace(/'(?:\/|~\/|file:)[^'\n]*'/g, "'<path>'");
}
