/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, run under Node 22
 * from the npm package `node`) against the platform: one api in this process with anonymous access
 * and stateful in-memory sessions, each applicable scenario run in turn by the suite's own client.
 * Scenarios that need the reference server's `test_*` fixtures are listed as skipped (scenarios.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { startTestApi, testConfig } from '../support/api.js';
import { applicableScenarios, fixtureScenarios } from './scenarios.js';
import { describeUnpassed, listServerScenarios, locateConformanceSuite, runServerScenario, unpassedChecks } from './suite.js';

// The suite's client has no OAuth: anonymous callers get the `conformance` persona (every tool),
// and a prompt and a custom resource give prompts/list and resources/list something to check.
const configYaml = `
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown:
    pre_shutdown_delay: 0s
    grace_period: 5s
  prompts:
    - name: summarize_table
      description: Summarize a table for a reader new to it.
      content: "Summarize the table {table}: what a row is, its key columns, and how fresh it is."
      arguments:
        - name: table
          description: Fully qualified table name.
          required: true
auth:
  allow_anonymous: true
sessions:
  store: memory
personas:
  default_persona: conformance
  definitions:
    conformance:
      description: What anonymous callers get in the conformance run.
resources:
  custom:
    - uri: "platform://conformance/readme"
      name: readme
      description: A static text resource for resources/list.
      mime_type: text/plain
      content: "Served to the MCP conformance suite."
`;

describe('official MCP conformance suite (server scenarios)', () => {
  let api: RunningApi;
  let launcher: string;
  let mcpUrl: string;

  beforeAll(async () => {
    launcher = await locateConformanceSuite();
    api = await startTestApi({ config: testConfig(configYaml) });
    // `localhost`, not 127.0.0.1: dns-rebinding-protection runs only against a localhost URL.
    mcpUrl = `http://localhost:${new URL(api.url).port}/mcp`;
  });
  afterAll(async () => api?.stop());

  it('classifies every server scenario of the installed suite as applicable or fixture-bound', async () => {
    const listed = await listServerScenarios(launcher);
    expect([...applicableScenarios, ...Object.keys(fixtureScenarios)].sort()).toEqual([...listed].sort());
  });

  // Sequential against one server: the scenarios share its session table and per-subject cap.
  it.each(applicableScenarios)('passes every check of %s', async (scenario) => {
    const run = await runServerScenario(launcher, mcpUrl, scenario);
    expect(run.checks.some((check) => check.status === 'SUCCESS'), `${scenario} reported no passing check:\n${run.output}`).toBe(true);
    expect(unpassedChecks(run), describeUnpassed(run)).toEqual([]);
    expect(run.exitCode, run.output).toBe(0);
  });

  it.skip.each(Object.entries(fixtureScenarios))('%s (needs the reference server fixture: %s)', () => {});
});
