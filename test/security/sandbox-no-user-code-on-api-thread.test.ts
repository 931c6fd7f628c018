/**
 * Security pass 3, item 1: no user code runs on the api's thread. A handler inside one long
 * built-in call (QuickJS cannot interrupt it: it passes no interruption check) once froze the
 * whole api — MCP, REST, webhooks, /healthz — for as long as the call took, past the endpoint's
 * timeout, when short handlers were answered on the api's own thread. Through the real api role:
 * while a public endpoint's handler is stuck so, /healthz keeps answering, and the stuck run is
 * stopped at its deadline (its worker terminated) with a timeout outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndpointRig, type EndpointRig } from '../integration/endpoint-requests-fixtures.js';

let rig: EndpointRig;

/** Anonymous callers choose whether the handler searches a long text for what is not in it. */
const searching = `export function handle(req) {
  if (req.query.stuck === undefined) return { json: 'ok' };
  return { json: 'a'.repeat(6e6).indexOf('a'.repeat(1000) + 'b') };
}`;

beforeAll(async () => {
  rig = await startEndpointRig();
  await rig.endpoint('search', searching, { open_reads: true, timeout_seconds: 1 });
});

afterAll(async () => {
  await rig?.stop();
});

describe('no user code on the api’s thread', () => {
  it('while a handler is stuck in a long built-in call, /healthz answers, and the run ends at its deadline as a timeout', async () => {
    // Warm: the handler's module evaluated, and any engine the api keeps compiled.
    for (let i = 0; i < 5; i++) {
      expect((await rig.call('/endpoints/search')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let ended = false;
    const stuck = rig.call('/endpoints/search?stuck=1').finally(() => (ended = true));
    let answeredMeanwhile = 0;
    while (!ended) {
      const health = await fetch(`${rig.api.url}/healthz`);
      expect(health.status).toBe(200);
      if (!ended) answeredMeanwhile++;
    }
    // One may slip in before the stuck request is read; a frozen api answers no more until it ends.
    expect(answeredMeanwhile).toBeGreaterThan(2);
    expect((await stuck).status).toBe(504);
    // The failure is recorded beside the answer, not before it: wait for its row (a loaded machine takes a moment).
    await expect
      .poll(async () => (await rig.db.query<{ error: string }>("SELECT error FROM endpoint_failures WHERE endpoint = 'search'")).rows, { timeout: 5_000 })
      .toEqual([{ error: expect.stringContaining('its worker was stopped') }]);
    // The endpoint still answers.
    expect((await rig.call('/endpoints/search')).status).toBe(200);
  });
});
