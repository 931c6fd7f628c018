/**
 * A SQL lexer for the statement-level grammar in readonly.ts. It follows the lexical rules of the
 * engines' own grammars (Trino's SqlBase.g4; DuckDB's PostgreSQL-derived scanner) for the things that
 * decide where a statement starts and ends: comments, string literals, quoted identifiers and `;`.
 * Getting those right is what stops a comment or a string from hiding a second statement.
 */

export type Dialect = 'trino' | 'duckdb';

export type TokenType = 'word' | 'quoted' | 'string' | 'number' | 'punct';

export interface Token {
  type: TokenType;
  /** The source text of the token. */
  text: string;
  /** Upper-cased text for words (keywords compare on it); the text otherwise. */
  upper: string;
  start: number;
  end: number;
}

export const isPunct = (t: Token | undefined, ...p: string[]): boolean => t?.type === 'punct' && p.includes(t.text);
export const isWord = (t: Token | undefined, w: string): boolean => t?.type === 'word' && t.upper === w;

/** An identifier's name as both engines compare it (case-insensitive, double quotes removed); undefined for other tokens. */
export function identifier(t: Token | undefined): string | undefined {
  if (t?.type === 'word') return t.text.toLowerCase();
  if (t?.type === 'quoted' && t.text.startsWith('"')) return t.text.slice(1, -1).replaceAll('""', '"').toLowerCase();
  return undefined;
}

export class SqlLexError extends Error {
  override readonly name = 'SqlLexError';
}

const isWordStart = (c: string) => /[A-Za-z_\u0080-\uffff]/.test(c);
const isWordPart = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/**
 * Tokens of `sql`, comments and whitespace dropped. Unterminated strings, identifiers or comments
 * are errors: an engine would read them differently from us, so nothing is decided on them.
 */
export function tokenize(sql: string, dialect: Dialect): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = sql.length;
  const push = (type: TokenType, start: number, end: number) => {
    const text = sql.slice(start, end);
    tokens.push({ type, text, upper: type === 'word' ? text.toUpperCase() : text, start, end });
  };
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '-' && next === '-') {
      // Line comment up to the end of the line (both dialects).
      while (i < n && sql[i] !== '\n' && sql[i] !== '\r') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      i = skipBlockComment(sql, i, dialect === 'duckdb');
      continue;
    }
    if (c === "'") {
      const start = i;
      i = skipQuoted(sql, i, "'", false);
      push('string', start, i);
      continue;
    }
    if ((c === 'E' || c === 'e') && next === "'" && dialect === 'duckdb') {
      // PostgreSQL-style escape string: a backslash escapes the next character, including a quote.
      const start = i;
      i = skipQuoted(sql, i + 1, "'", true);
      push('string', start, i);
      continue;
    }
    if (c === '"') {
      const start = i;
      i = skipQuoted(sql, i, '"', false);
      push('quoted', start, i);
      continue;
    }
    if (c === '`') {
      const start = i;
      i = skipQuoted(sql, i, '`', false);
      push('quoted', start, i);
      continue;
    }
    if (c === '$' && dialect === 'duckdb') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i));
      if (tag) {
        const end = sql.indexOf(tag[0], i + tag[0].length);
        if (end < 0) throw new SqlLexError('unterminated dollar-quoted string');
        push('string', i, end + tag[0].length);
        i = end + tag[0].length;
        continue;
      }
    }
    if (isWordStart(c)) {
      const start = i;
      while (i < n && isWordPart(sql[i]!)) i++;
      push('word', start, i);
      continue;
    }
    if (isDigit(c) || (c === '.' && next !== undefined && isDigit(next))) {
      const start = i;
      while (i < n && /[0-9A-Za-z_.]/.test(sql[i]!)) {
        // Exponent sign: 1e-5
        if ((sql[i] === 'e' || sql[i] === 'E') && (sql[i + 1] === '-' || sql[i + 1] === '+')) i++;
        i++;
      }
      push('number', start, i);
      continue;
    }
    push('punct', i, i + 1);
    i++;
  }
  return tokens;
}

function skipBlockComment(sql: string, start: number, nested: boolean): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth = nested ? depth + 1 : 1;
      i += 2;
      continue;
    }
    if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
      continue;
    }
    i++;
  }
  throw new SqlLexError('unterminated block comment');
}

/** Index after the closing quote; a doubled quote is an escaped one (and a backslash when `backslash`). */
function skipQuoted(sql: string, start: number, quote: string, backslash: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === '\\') {
      i += 2;
      continue;
    }
    if (c === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  throw new SqlLexError(quote === "'" ? 'unterminated string literal' : 'unterminated quoted identifier');
}

/**
 * Statements of `sql` as token lists, split at every `;` (wherever it is outside literals and
 * comments — splitting more eagerly than an engine would only makes the check stricter). Empty
 * statements (stray or trailing semicolons) are dropped.
 */
export function splitStatements(tokens: readonly Token[]): Token[][] {
  const statements: Token[][] = [];
  let current: Token[] = [];
  for (const token of tokens) {
    if (token.type === 'punct' && token.text === ';') {
      if (current.length) statements.push(current);
      current = [];
    } else current.push(token);
  }
  if (current.length) statements.push(current);
  return statements;
}

/** Index of the token closing the parenthesis opened at `open`, or -1 when it is never closed. */
export function matchingParen(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== 'punct') continue;
    if (t.text === '(') depth++;
    else if (t.text === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * For `EXPLAIN [ANALYZE|ANALYSE] [VERBOSE] [( options )] <statement>`: the index of the first token
 * of the explained statement, and whether it is an EXPLAIN ANALYZE (which executes it).
 */
export function explainTarget(tokens: readonly Token[]): { index: number; analyze: boolean } | undefined {
  if (tokens[0]?.type !== 'word' || tokens[0].upper !== 'EXPLAIN') return undefined;
  let i = 1;
  let analyze = false;
  for (;;) {
    const t = tokens[i];
    if (t?.type === 'word' && (t.upper === 'ANALYZE' || t.upper === 'ANALYSE')) {
      analyze = true;
      i++;
    } else if (t?.type === 'word' && t.upper === 'VERBOSE') i++;
    else break;
  }
  if (tokens[i]?.type === 'punct' && tokens[i]!.text === '(') {
    // `EXPLAIN (TYPE IO) …` options, unless the parenthesis opens the explained query itself.
    const inner = tokens[i + 1];
    const isQuery = inner?.type === 'word' && ['SELECT', 'WITH', 'VALUES', 'TABLE', 'FROM'].includes(inner.upper);
    if (!isQuery) {
      const close = matchingParen(tokens, i);
      if (close < 0) return undefined;
      const options = tokens.slice(i + 1, close);
      if (options.some((o) => o.type === 'word' && (o.upper === 'ANALYZE' || o.upper === 'ANALYSE'))) analyze = true;
      i = close + 1;
    }
  }
  return { index: i, analyze };
}
