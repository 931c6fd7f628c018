/**
 * Issue 41 (the MCP request path): a connection's accepted credentials answer its next requests
 * only for exactly those credential headers, on that connection, while the verdict holds.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionVerdicts, presentedCredentials, type CallerContext, type PresentedCredentials } from '../../shared/identity/index.js';

const ada: CallerContext = { subject: 'apikey:ada', name: 'ada', roles: ['analyst'], authType: 'apikey' };
const key = 'configured-secret-0123456789';
const bearer: PresentedCredentials = { authorization: `Bearer ${key}`, apiKey: undefined };

function testClock() {
  let now = Date.UTC(2030, 0, 1);
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('presentedCredentials', () => {
  it('takes the credential headers as sent, once each', () => {
    expect(presentedCredentials({ authorization: 'Bearer x', host: 'h' })).toEqual({ authorization: 'Bearer x', apiKey: undefined });
    expect(presentedCredentials({ 'x-api-key': 'k' })).toEqual({ authorization: undefined, apiKey: 'k' });
    expect(presentedCredentials({ authorization: 'Bearer x', 'x-api-key': 'k' })).toEqual({ authorization: 'Bearer x', apiKey: 'k' });
  });

  it('none without credentials or with a header repeated: such a request always goes through the chain', () => {
    expect(presentedCredentials({ host: 'h' })).toBeUndefined();
    expect(presentedCredentials({ 'x-api-key': ['a', 'b'] })).toBeUndefined();
    expect(presentedCredentials({ authorization: ['Bearer a'], 'x-api-key': 'k' })).toBeUndefined();
  });
});

describe('ConnectionVerdicts', () => {
  it('answers the same headers on the same connection until the verdict ends', () => {
    const clock = testClock();
    const verdicts = new ConnectionVerdicts<object>(clock.now);
    const connection = {};
    verdicts.remember(connection, bearer, ada, 1000);
    expect(verdicts.get(connection, { ...bearer })).toEqual(ada);
    clock.advance(999);
    expect(verdicts.get(connection, bearer)).toEqual(ada);
    clock.advance(1);
    expect(verdicts.get(connection, bearer)).toBeUndefined();
    // Gone, not just stale: the same verdict is not found again.
    clock.advance(-1);
    expect(verdicts.get(connection, bearer)).toBeUndefined();
  });

  it('never answers another connection', () => {
    const verdicts = new ConnectionVerdicts<object>();
    verdicts.remember({}, bearer, ada, 60_000);
    expect(verdicts.get({}, bearer)).toBeUndefined();
  });

  it('never answers credentials that differ in any way', () => {
    const verdicts = new ConnectionVerdicts<object>();
    const connection = {};
    verdicts.remember(connection, bearer, ada, 60_000);
    const nearMisses: PresentedCredentials[] = [
      { authorization: `Bearer ${key}x`, apiKey: undefined },
      { authorization: `Bearer ${key.slice(0, -1)}`, apiKey: undefined },
      { authorization: `Bearer ${key.slice(0, -1)}8`, apiKey: undefined },
      { authorization: `bearer ${key}`, apiKey: undefined },
      { authorization: `Bearer ${key} `, apiKey: undefined },
      { authorization: undefined, apiKey: key },
      { authorization: `Bearer ${key}`, apiKey: key },
      { authorization: `Bearer ${key}`, apiKey: '' },
      { authorization: `Bearer ${key.replace('0', 'é')}`, apiKey: undefined },
    ];
    for (const presented of nearMisses) expect(verdicts.get(connection, presented)).toBeUndefined();
    expect(verdicts.get(connection, bearer)).toEqual(ada);
  });

  it('remembers nothing for a verdict with no time left', () => {
    const verdicts = new ConnectionVerdicts<object>();
    const connection = {};
    verdicts.remember(connection, bearer, ada, 0);
    verdicts.remember(connection, bearer, ada, -5);
    expect(verdicts.get(connection, bearer)).toBeUndefined();
  });

  it('hands the connection\'s requests one frozen copy of the caller: no request can change what the next sees', () => {
    const verdicts = new ConnectionVerdicts<object>();
    const connection = {};
    const accepted = { ...ada, roles: [...ada.roles] };
    const held = verdicts.remember(connection, bearer, accepted, 60_000);
    expect(held).not.toBe(accepted);
    accepted.roles.push('admin');
    const first = verdicts.get(connection, bearer)!;
    expect(first).toBe(held);
    expect(() => first.roles.push('admin')).toThrow(TypeError);
    expect(() => {
      first.subject = 'apikey:someone-else';
    }).toThrow(TypeError);
    expect(verdicts.get(connection, bearer)).toBe(first);
    expect(verdicts.get(connection, bearer)).toEqual(ada);
  });
});
