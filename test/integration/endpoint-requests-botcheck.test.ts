/**
 * A public endpoint behind the deployment's own bot check (docs/botcheck.md): a proof-of-work
 * answer to a challenge from /botcheck/challenge is accepted once — the endpoint answers it — and
 * refused as already used on every replica after; sent to two replicas at once, it is accepted by
 * exactly one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApiRole } from '../../cli/services.js';
import { solve } from './botcheck-fixtures.js';
import { jsonOf, startEndpointRig, type EndpointRig } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;
let second: RunningApiRole;

beforeAll(async () => {
  rig = await startEndpointRig({ botCheck: 'deployment' });
  second = await rig.replica();
  await rig.endpoint('orders', "export function handle(req) { return { status: 201, json: { ordered: req.json.item } } }", { methods: ['POST'] });
});

afterAll(async () => {
  await rig?.stop();
});

async function answer(): Promise<string> {
  const challenge = await jsonOf(await fetch(`${rig.api.url}/botcheck/challenge?endpoint=orders`));
  expect(challenge).toMatchObject({ provider: 'pow', header: 'X-Bot-Check', difficulty: 16 });
  return solve(challenge.challenge as string, challenge.difficulty as number);
}

const order = (header: string, base?: string) =>
  rig.call('/endpoints/orders', { method: 'POST', headers: { 'x-bot-check': header, 'content-type': 'application/json' }, body: '{"item":"tea"}' }, base);

describe('the deployment bot check', () => {
  it('answers a request carrying a solved challenge, then refuses the same answer on every replica', async () => {
    const solved = await answer();
    const first = await order(solved);
    expect([first.status, await jsonOf(first)]).toEqual([201, { ordered: 'tea' }]);
    for (const base of [rig.api.url, second.url]) {
      const again = await order(solved, base);
      expect([again.status, (await jsonOf(again)).error]).toEqual([403, 'bot_check_refused']);
    }
    const missing = await rig.call('/endpoints/orders', { method: 'POST' });
    expect([missing.status, (await jsonOf(missing)).error]).toEqual([403, 'bot_check_required']);
  });

  it('accepts one answer sent to two replicas at once exactly once', async () => {
    const solved = await answer();
    const statuses = (await Promise.all([order(solved), order(solved, second.url)])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 403]);
  });
});
