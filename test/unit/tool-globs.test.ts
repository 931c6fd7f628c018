/**
 * Issue 10 item 3: tool-name globs are compiled once per pattern list (a persona's allow/deny, the
 * global tools.allow/deny), not for every tool on every tools/list or tools/call. picomatch is
 * wrapped by a spy that counts compilations and still does the real work.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const compilations = vi.hoisted(() => ({ count: 0 }));
vi.mock('picomatch', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: (...args: unknown[]) => unknown }).default;
  return {
    default: (...args: unknown[]) => {
      compilations.count++;
      return real(...args);
    },
  };
});

const { allowDenyFilter, defineTool, globMatcher, listTools, textResult, ToolRegistry } = await import('../../shared/mcp-tools/index.js');
const { personaToolAccess } = await import('../../shared/personas/index.js');
const { parseConfig } = await import('../../shared/config/index.js');
type CallerContext = import('../../shared/identity/index.js').CallerContext;

const toolNames = ['platform_info', 'sql_query', 'sql_execute', 'sql_browse', 'catalog_search', 'objstore_get', 'manage_resource'];
const registry = new ToolRegistry().register(
  ...toolNames.map((name) => defineTool({ name, toolkit: 'test', description: name, input: z.object({}), handler: async () => textResult('') })),
);

const { config } = parseConfig(
  `
tools:
  allow: ["sql_*", "catalog_*", "platform_info"]
  deny: ["*_execute"]
personas:
  definitions:
    analyst:
      roles: [analyst]
      tools: { allow: ["sql_*", "catalog_*", "platform_info"], deny: ["sql_execute", "*_browse"] }
`,
  {},
);
const listing = { allow: config.tools.allow, deny: config.tools.deny, descriptionOverrides: {} };
const patternCount = (lists: ReadonlyArray<readonly string[]>) => lists.reduce((n, l) => n + l.length, 0);
/** What every HTTP request authenticates into: a fresh caller object. */
const analystRequest = (): CallerContext => ({ subject: 'apikey:etl', roles: ['analyst'], authType: 'apikey' });

beforeEach(() => {
  compilations.count = 0;
});

describe('tool-name globs are compiled once', () => {
  it('persona allow/deny: once for every tool of every request', () => {
    const access = personaToolAccess(config.personas);
    for (let request = 0; request < 5; request++) {
      const caller = analystRequest();
      for (const tool of registry.all()) access.mayUse(tool, caller);
    }
    const analyst = config.personas.definitions.analyst!.tools;
    expect(compilations.count).toBe(patternCount([analyst.allow, analyst.deny]));
  });

  it('tools/list: the listing rules and the persona rules once across lists', () => {
    const access = personaToolAccess(config.personas);
    const first = listTools(registry, listing, access, analystRequest()).map((t) => t.name);
    const afterFirst = compilations.count;
    for (let list = 0; list < 5; list++) expect(listTools(registry, listing, access, analystRequest()).map((t) => t.name)).toEqual(first);
    expect(compilations.count).toBe(afterFirst);
    expect(first).toEqual(['platform_info', 'sql_query', 'catalog_search']);
  });

  it('a cached matcher answers like a freshly compiled list', () => {
    const patterns = ['sql_*', 'catalog_?earch', 'platform_info'];
    const cached = globMatcher(patterns);
    for (const name of [...toolNames, 'sql_', 'catalog_xsearch', 'platform_info_2', '.hidden_sql_query']) {
      expect(globMatcher(patterns)(name)).toBe(cached(name));
      expect(cached(name)).toBe(globMatcher([...patterns])(name));
    }
    expect(allowDenyFilter(listing.allow, listing.deny)('sql_execute')).toBe(false);
    expect(allowDenyFilter(listing.allow, listing.deny)('sql_query')).toBe(true);
  });
});
