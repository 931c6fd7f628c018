/**
 * sql_export's Parquet on DuckDB (pure): the caller's query becomes the subquery of a COPY the
 * engine process writes into its exports directory, `COPY (\n<query>\n) TO '<file>' (FORMAT
 * PARQUET)`. The query's text must stay inside those parentheses whatever it holds, so it is
 * refused unless its tokens (strings, quoted names and comments read as DuckDB reads them) keep
 * every parenthesis balanced and hold no `;` but trailing ones; the newline before the closing
 * parenthesis ends a trailing line comment. The engine process checks besides that the query is
 * one SELECT (DuckDB's own statement type), and runs the COPY in a READ ONLY transaction.
 */
import type { Token } from './lexer.js';

/** The query to place inside `COPY (…)`, trailing semicolons removed, or why it cannot be. */
export function copySubquery(tokens: readonly Token[], sql: string): { body: string } | { refusal: string } {
  let last = tokens.length;
  while (last > 0 && tokens[last - 1]!.type === 'punct' && tokens[last - 1]!.text === ';') last--;
  if (last === 0) return { refusal: 'no statement to export' };
  let depth = 0;
  for (let i = 0; i < last; i++) {
    const t = tokens[i]!;
    if (t.type !== 'punct') continue;
    if (t.text === ';') return { refusal: 'sql_export runs one statement' };
    if (t.text === '(') depth++;
    else if (t.text === ')' && --depth < 0) return { refusal: 'unbalanced parentheses' };
  }
  if (depth !== 0) return { refusal: 'unbalanced parentheses' };
  return { body: sql.slice(0, last === tokens.length ? sql.length : tokens[last]!.start) };
}

/** The COPY statement writing `body` to `file` as Parquet (`file` is the engine's own path). */
export function parquetCopy(body: string, file: string): string {
  return `COPY (\n${body}\n) TO '${file.replaceAll("'", "''")}' (FORMAT PARQUET)`;
}
