/**
 * The enrichment middleware's own rules (toolkits.md 5.1; document 1 `tuning.rules.require_datahub_check`):
 * which results it leaves alone, and the static hint that stands in for the workflow tracker.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../shared/config/index.js';
import { enrichmentMiddleware } from '../../shared/enrichment/index.js';
import { anonymousCaller, type CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { defineTool, jsonResult, toolError, type CallToolResult } from '../../shared/mcp-tools/index.js';

const config = (yaml: string) => parseConfig(yaml, {}).config;
const tool = (name: string) => defineTool({ name, toolkit: name.split('_')[0]!, description: name, input: z.object({}), handler: async () => jsonResult({}) });

async function run(yaml: string, name: string, result: CallToolResult, caller: CallerContext = anonymousCaller): Promise<CallToolResult> {
  const middleware = enrichmentMiddleware({ config: config(yaml), reach: () => true });
  return middleware({ tool: tool(name), args: {}, ctx: { caller, signal: new AbortController().signal, log: silentLogger() } }, async () => result);
}

const hintOn = 'tuning:\n  rules:\n    require_datahub_check: true\n';

describe('tuning.rules.require_datahub_check', () => {
  it('adds the one-line tip to query tools when no workflow tracker runs', async () => {
    const out = await run(hintOn, 'sql_query', jsonResult({ rows: [] }));
    expect(out.content).toHaveLength(2);
    expect(out.structuredContent).toMatchObject({ rows: [], catalog_check_hint: expect.stringMatching(/^Tip: look the tables up in the catalog first/) });
  });

  it('not on other tools, and not when workflow gating is the tracker', async () => {
    expect((await run(hintOn, 'sql_browse', jsonResult({}))).content).toHaveLength(1);
    expect((await run(`${hintOn}workflow:\n  require_discovery_before_query: true\n`, 'sql_query', jsonResult({}))).content).toHaveLength(1);
    expect((await run('', 'sql_query', jsonResult({}))).content).toHaveLength(1);
  });
});

describe('5.1 eligibility', () => {
  it('leaves error results, *_export tools, managed-script callers and other families alone', async () => {
    expect(await run(hintOn, 'sql_query', toolError('Query failed: x'))).toEqual(toolError('Query failed: x'));
    expect((await run(hintOn, 'sql_export', jsonResult({}))).content).toHaveLength(1);
    const script = { subject: 'script:nightly', name: 'nightly', roles: [], authType: 'script', script: { id: '1', name: 'nightly' } } as CallerContext;
    expect((await run(hintOn, 'sql_query', jsonResult({}), script)).content).toHaveLength(1);
    expect((await run(hintOn, 'manage_resource', jsonResult({}))).content).toHaveLength(1);
  });
});
