import { platformToolNames } from './tool-names.js';

/**
 * Built-in description overrides (spec document 1, tools.description_overrides): they steer agents
 * to discover data in the catalog before querying. Configured overrides win over these; each
 * applies only for a caller who is offered every tool it names (else the tool's own description).
 */
export const builtInDescriptionOverrides: Readonly<Record<string, string>> = {
  sql_query:
    'Run a read-only SQL query and return rows. Before writing SQL, call catalog_search to find the right tables and read their ' +
    'descriptions, owners and column meanings; query only tables you have looked up.',
  sql_execute:
    'Execute a SQL statement that may change data. First call catalog_search to confirm the tables, their meaning and owners; ' +
    'never modify a table you have not looked up.',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How a description names a tool: a snake_case name as a whole word, or any name in backticks
 * (`search` and `fetch` are also English words, so bare they name nothing).
 */
function mentionPattern(name: string): RegExp {
  const quoted = `\`${escapeRegExp(name)}\``;
  return new RegExp(name.includes('_') ? `(?<![\\w.])${escapeRegExp(name)}(?!\\w)|${quoted}` : quoted);
}

const mentionPatterns = new Map(platformToolNames.map((name) => [name, mentionPattern(name)]));

// Descriptions repeat on every tools/list: their texts are few (built-ins, overrides, hints).
const namedCache = new Map<string, string[]>();
const namedCacheLimit = 2000;

/** The platform's tools that `text` names. */
export function namedTools(text: string): string[] {
  let names = namedCache.get(text);
  if (!names) {
    names = [...mentionPatterns].filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
    if (namedCache.size >= namedCacheLimit) namedCache.clear();
    namedCache.set(text, names);
  }
  return names;
}

/** Sentences and lines, each with the white space before it; joining them gives the text back. */
function sentences(text: string): string[] {
  return text.split(/(?=(?<=[.!?])[ \t]+\S)|(?=\n)/);
}

/**
 * `text` without the sentences (or bullet lines) that name a platform tool `offered` excludes:
 * a description never names a tool its reader cannot call.
 */
export function withoutUnofferedTools(text: string, offered: ReadonlySet<string>): string {
  const absent = (part: string) => namedTools(part).some((name) => !offered.has(name));
  if (!absent(text)) return text;
  const kept = sentences(text).filter((part) => !absent(part));
  // A first sentence dropped leaves the next one's leading space; dropped lines may leave blank runs.
  return kept.join('').replace(/\n{3,}/g, '\n\n').trim();
}

/** The description a caller is shown, before persona hints; `offered` is every tool listed to that caller. */
export function describeTool(
  name: string,
  builtIn: string,
  configured: Readonly<Record<string, string>>,
  offered: ReadonlySet<string>,
): string {
  const override = builtInDescriptionOverrides[name];
  const usable = override !== undefined && namedTools(override).every((tool) => offered.has(tool)) ? override : undefined;
  return configured[name] ?? usable ?? builtIn;
}
