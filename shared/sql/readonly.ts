/**
 * Read-only classification: which statements provably cannot change data.
 *
 * - DuckDB decides with its own parser: `extractStatements` splits the input and each prepared
 *   statement reports its StatementType (duckdb-engine.ts). `duckdbVerdict` below maps the type.
 * - Trino decides with two parsers that must agree: a statement-level grammar that follows Trino's
 *   SqlBase.g4 (a statement's kind is fixed by its leading keyword; a query — WITH/SELECT/VALUES/
 *   TABLE/`(` — can contain no data-changing statement anywhere in Trino's grammar), and
 *   node-sql-parser's Trino dialect, whose AST is walked for any data-changing node. When
 *   node-sql-parser cannot parse a statement (it lacks e.g. `SHOW SCHEMAS FROM`, `EXPLAIN`,
 *   `VALUES`), the grammar alone decides. Anything neither can prove to be a read is refused.
 *
 * Comments and string literals are handled by the lexers, so `/* … *\/ INSERT` and
 * `SELECT 1; DROP TABLE t` are seen for what they are.
 */
import { createRequire } from 'node:module';
import { explainTarget, matchingParen, splitStatements, tokenize, type Token } from './lexer.js';
import type { PlatformSchema } from './platform-objects.js';
import { trinoPlatformObjectRefusal, trinoStorageRefusal } from './trino-policy.js';
import type { Classification, StatementVerdict, TableRef } from './types.js';

// ---------------------------------------------------------------------------
// DuckDB

/** DuckDB statement types (the enum's names) that only read. EXPLAIN is checked on its target. */
const duckdbReadTypes = new Set(['SELECT', 'EXPLAIN']);

export function duckdbVerdict(statementType: string): StatementVerdict {
  return { read: duckdbReadTypes.has(statementType), kind: statementType };
}

/**
 * DuckDB statement types a tool may run on any connection: reads, data changes, DDL, COPY and
 * session settings (which `lock_configuration` guards). The rest administer the engine for every
 * caller at once — ATTACH, DETACH, LOAD, INSTALL, CALL (and CHECKPOINT, which is one), non-query
 * PRAGMAs, EXPORT, PREPARE/EXECUTE, transactions — and are refused.
 */
const duckdbToolTypes = new Set([
  'SELECT', 'EXPLAIN', 'INSERT', 'UPDATE', 'DELETE', 'MERGE_INTO', 'CREATE', 'CREATE_FUNC', 'DROP', 'ALTER', 'COPY', 'ANALYZE', 'VACUUM', 'SET', 'VARIABLE_SET',
]);

export function duckdbTypeRefusal(statementType: string): string | undefined {
  return duckdbToolTypes.has(statementType) ? undefined : `${statementType} statements are not available: they administer the engine`;
}

// ---------------------------------------------------------------------------
// Trino statement grammar

const queryStarts = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);

/** Statements that only read metadata: every SHOW form, DESCRIBE (table, INPUT, OUTPUT). */
const metadataReads = new Set(['SHOW', 'DESCRIBE', 'DESC']);

const word = (t: Token | undefined, ...w: string[]) => t?.type === 'word' && w.includes(t.upper);
const punct = (t: Token | undefined, p: string) => t?.type === 'punct' && t.text === p;

/**
 * Whether the tokens from `start` form a query in Trino's grammar:
 * `query := [WITH [RECURSIVE] namedQuery (, namedQuery)*] queryNoWith`,
 * `namedQuery := identifier [(columns)] AS ( query )`, `queryNoWith` starting with SELECT, VALUES,
 * TABLE or a parenthesised query. Every WITH body is checked as a query too.
 */
function isTrinoQuery(tokens: readonly Token[], start: number, end: number, depth = 0): boolean {
  if (depth > 64) return false;
  let i = start;
  if (word(tokens[i], 'WITH')) {
    i++;
    if (word(tokens[i], 'RECURSIVE')) i++;
    for (;;) {
      const name = tokens[i];
      if (!name || (name.type !== 'word' && name.type !== 'quoted')) return false;
      i++;
      if (punct(tokens[i], '(')) {
        const close = matchingParen(tokens, i);
        if (close < 0 || close >= end) return false;
        i = close + 1;
      }
      if (!word(tokens[i], 'AS')) return false;
      i++;
      if (!punct(tokens[i], '(')) return false;
      const close = matchingParen(tokens, i);
      if (close < 0 || close >= end) return false;
      if (!isTrinoQuery(tokens, i + 1, close, depth + 1)) return false;
      i = close + 1;
      if (punct(tokens[i], ',')) {
        i++;
        continue;
      }
      break;
    }
  }
  const head = tokens[i];
  if (punct(head, '(')) return isTrinoQuery(tokens, i + 1, end, depth + 1);
  return word(head, 'SELECT', 'VALUES', 'TABLE');
}

/** The grammar's verdict on one Trino statement. */
export function trinoGrammarVerdict(tokens: readonly Token[], depth = 0): StatementVerdict {
  const head = tokens[0];
  const kind = head?.type === 'word' ? head.upper : (head?.text ?? '');
  if (depth > 8) return { read: false, kind, reason: 'too deeply nested EXPLAIN' };
  if (word(head, 'EXPLAIN')) {
    const target = explainTarget(tokens);
    if (!target || target.index >= tokens.length) return { read: false, kind: 'EXPLAIN', reason: 'EXPLAIN without a statement' };
    const inner = trinoGrammarVerdict(tokens.slice(target.index), depth + 1);
    return { read: inner.read, kind: inner.read ? 'EXPLAIN' : `EXPLAIN ${inner.kind}`, ...(inner.reason ? { reason: inner.reason } : {}) };
  }
  if (head?.type === 'word' && metadataReads.has(head.upper)) return { read: true, kind };
  if ((head?.type === 'word' && queryStarts.has(head.upper)) || punct(head, '(')) {
    return isTrinoQuery(tokens, 0, tokens.length)
      ? { read: true, kind: head?.type === 'word' ? head.upper : 'SELECT' }
      : { read: false, kind: firstStatementKeyword(tokens) ?? kind, reason: 'not a query in Trino grammar' };
  }
  return { read: false, kind };
}

/** For a statement that is not a query: the first data-changing keyword in it, to name it in the refusal. */
function firstStatementKeyword(tokens: readonly Token[]): string | undefined {
  return tokens.find((t) => word(t, 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'CALL'))?.upper;
}

// ---------------------------------------------------------------------------
// node-sql-parser (Trino dialect)

interface SqlParser {
  astify(sql: string, opt?: { database?: string }): unknown;
}
const require = createRequire(import.meta.url);
let parser: SqlParser | undefined;
function trinoParser(): SqlParser {
  // Only the Trino build (~250 KB), not the bundle of every dialect.
  parser ??= new (require('node-sql-parser/build/trino.js') as { Parser: new () => SqlParser }).Parser();
  return parser;
}

/** AST node types of node-sql-parser that change data or state, wherever they appear. */
const astWriteTypes = new Set([
  'insert', 'replace', 'update', 'delete', 'merge', 'create', 'drop', 'alter', 'truncate', 'rename', 'grant', 'revoke',
  'call', 'exec', 'execute', 'load_data', 'use', 'set', 'lock', 'unlock', 'transaction', 'copy', 'attach', 'detach',
  'comment', 'analyze', 'deallocate', 'prepare', 'refresh',
]);
const astReadTops = new Set(['select', 'show', 'desc', 'describe']);

/** The first write node type anywhere in an AST, if any. */
function findWrite(node: unknown, depth = 0): string | undefined {
  if (depth > 200 || node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const hit = findWrite(n, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  const type = (node as { type?: unknown }).type;
  if (typeof type === 'string' && astWriteTypes.has(type.toLowerCase())) return type.toUpperCase();
  for (const value of Object.values(node)) {
    const hit = findWrite(value, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** node-sql-parser's verdict, or undefined when it cannot parse the statement. */
export function trinoAstVerdict(statement: string): StatementVerdict | undefined {
  let ast: unknown;
  try {
    ast = trinoParser().astify(statement, { database: 'trino' });
  } catch {
    return undefined;
  }
  const nodes = Array.isArray(ast) ? ast : [ast];
  if (nodes.length !== 1) return { read: false, kind: 'MULTI', reason: 'more than one statement' };
  const top = nodes[0] as { type?: string };
  const type = (top.type ?? '').toLowerCase();
  const write = findWrite(top);
  if (write) return { read: false, kind: write };
  return astReadTops.has(type) ? { read: true, kind: type.toUpperCase() } : { read: false, kind: type.toUpperCase() };
}

/**
 * Splits Trino input into statements and classifies the first two (the second decides a refusal's
 * wording; more are refused anyway); the two parsers must both call a statement a read. Input that
 * sets a storage location is refused on every connection, and so is input that changes data where
 * the platform registers tables (`platform`) or shows where its files lie (trino-policy.ts).
 */
export function classifyTrino(sql: string, platform?: { scratch: PlatformSchema; defaults: { catalog?: string; schema?: string } }): Classification {
  const tokens = tokenize(sql, 'trino');
  const statements = splitStatements(tokens);
  const verdicts = statements.slice(0, 2).map((tokens) => {
    const grammar = trinoGrammarVerdict(tokens);
    if (!grammar.read) return grammar;
    const text = sql.slice(tokens[0]!.start, tokens[tokens.length - 1]!.end);
    const ast = trinoAstVerdict(text);
    if (ast && !ast.read) return { ...ast, reason: ast.reason ?? 'the SQL parser found a data-changing statement' };
    return grammar;
  });
  const writes = verdicts.some((v) => !v.read);
  const refusal = trinoStorageRefusal(tokens) ?? (platform ? trinoPlatformObjectRefusal(tokens, platform.scratch, platform.defaults, writes) : undefined);
  return { ...(refusal ? { refusal } : {}), count: statements.length, statements: verdicts };
}

/** Tables a Trino query reads, from node-sql-parser's AST (CTE names excluded); empty when it cannot parse. */
export function trinoReferencedTables(sql: string): TableRef[] {
  let ast: unknown;
  try {
    ast = trinoParser().astify(sql, { database: 'trino' });
  } catch {
    return [];
  }
  const ctes = new Set<string>();
  const found = new Map<string, TableRef>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 200 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) visit(n, depth + 1);
      return;
    }
    const rec = node as Record<string, unknown>;
    if (Array.isArray(rec.with)) {
      for (const w of rec.with as Array<{ name?: { value?: unknown } }>) {
        if (typeof w.name?.value === 'string') ctes.add(w.name.value.toLowerCase());
      }
    }
    if (Array.isArray(rec.from)) {
      for (const f of rec.from as Array<Record<string, unknown>>) {
        if (typeof f.table === 'string') {
          const db = typeof f.db === 'string' ? f.db : undefined;
          const schema = typeof f.schema === 'string' ? f.schema : undefined;
          // node-sql-parser puts a 2-part name's first part in `db`; in Trino that is the schema.
          const ref: TableRef = schema ? { catalog: db, schema, table: f.table } : db ? { schema: db, table: f.table } : { table: f.table };
          const key = [ref.catalog, ref.schema, ref.table].join('.');
          found.set(key, ref);
        }
      }
    }
    for (const value of Object.values(rec)) visit(value, depth + 1);
  };
  visit(ast, 0);
  return [...found.values()]
    .filter((t) => t.schema !== undefined || !ctes.has(t.table.toLowerCase()))
    .map((t) => (t.catalog === undefined ? omitUndefined(t) : t));
}

function omitUndefined(t: TableRef): TableRef {
  return { ...(t.catalog !== undefined ? { catalog: t.catalog } : {}), ...(t.schema !== undefined ? { schema: t.schema } : {}), table: t.table };
}

// ---------------------------------------------------------------------------
// The rule the tools apply

export type ReadOnlyDecision = { ok: true } | { ok: false; message: string };

/** Whether the engine runs this input at all (on any connection, in any tool). */
export function requirePermitted(classification: Classification): ReadOnlyDecision {
  return classification.refusal ? { ok: false, message: classification.refusal } : { ok: true };
}

/**
 * Whether a classified input may run where only reads are allowed. Refusal texts begin with
 * "write operations not allowed" (spec toolkits.md 1.4).
 */
export function requireRead(classification: Classification, where: string): ReadOnlyDecision {
  const writes = classification.statements.filter((s) => !s.read);
  if (writes.length === 0) return { ok: true };
  const first = writes[0]!;
  const why = first.reason ? ` (${first.reason})` : '';
  return { ok: false, message: `write operations not allowed ${where}: ${first.kind || 'statement'} is not a read-only statement${why}` };
}

/** One statement per call on every tool: engines differ on scripts, and a script hides its parts. */
export function requireSingleStatement(classification: Classification): ReadOnlyDecision {
  const n = classification.count;
  if (n === 1) return { ok: true };
  return { ok: false, message: n === 0 ? 'no statement to run' : `one statement per call, got ${n}` };
}
