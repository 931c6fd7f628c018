import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('graceful shutdown', () => {
  it('turns readiness false during the pre-shutdown delay, then lets an in-flight call finish', async () => {
    const toolStarted = deferred();
    const releaseTool = deferred();
    const delayStarted = deferred<number>();
    const releaseDelay = deferred();
    const slow = defineTool({
      name: 'slow',
      toolkit: 'test',
      description: 'Waits until the test releases it',
      input: z.object({}),
      async handler() {
        toolStarted.resolve();
        await releaseTool.promise;
        return textResult('finished');
      },
    });
    const api = await startTestApi({
      config: testConfig(apiConfigYaml()),
      tools: [slow],
      // The pre-shutdown delay waits on the test, not on the wall clock.
      sleep: async (ms) => {
        delayStarted.resolve(ms);
        await releaseDelay.promise;
      },
    });
    const client = new Client({ name: 'drain', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);

    const call = client.callTool({ name: 'slow', arguments: {} });
    await toolStarted.promise;
    const stopped = api.stop();
    await delayStarted.promise;

    const during = await fetch(`${api.url}/readyz`);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ ready: false, checks: { draining: true } });

    releaseDelay.resolve();
    releaseTool.resolve();
    expect(await call).toEqual({ content: [{ type: 'text', text: 'finished' }] });
    await stopped;
    await expect(fetch(`${api.url}/healthz`)).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('cuts off a request that outlives the grace period', async () => {
    const started = deferred();
    const hang = defineTool({
      name: 'hang',
      toolkit: 'test',
      description: 'Signals, then never finishes',
      input: z.object({}),
      handler: () => {
        started.resolve();
        return new Promise(() => undefined);
      },
    });
    const config = testConfig(apiConfigYaml());
    config.server.shutdown.grace_period = 200;
    const api = await startTestApi({ config, tools: [hang] });
    const client = new Client({ name: 'cut', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));
    // The SDK client does not notice a cut stream, so its own timeout ends the call on its side.
    const call = client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 1000 }).catch((error: unknown) => error);
    await started.promise;
    // stop() resolving at all proves the hung request was cut off: it would otherwise drain forever.
    await api.stop();
    await expect(fetch(`${api.url}/healthz`)).rejects.toThrow();
    expect(await call).toBeInstanceOf(Error);
    await client.close().catch(() => undefined);
  });
});
