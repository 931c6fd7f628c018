import { describe, expect, it } from 'vitest';
import { apiKeyAuthenticator, authenticateCredentials, digestKey, extractCredentials } from '../../shared/identity/index.js';

describe('extractCredentials', () => {
  it.each([
    [{}, []],
    [{ authorization: 'Bearer abc' }, [{ kind: 'bearer', token: 'abc' }]],
    [{ authorization: 'bearer   abc ' }, [{ kind: 'bearer', token: 'abc' }]],
    [{ authorization: 'Basic dXNlcjpwYXNz' }, [{ kind: 'bearer', token: '' }]],
    [{ 'x-api-key': ' k1 ' }, [{ kind: 'apikey', key: 'k1' }]],
  ])('%j → %j', (headers, expected) => {
    expect(extractCredentials(headers)).toEqual(expected);
  });
});

describe('API key authentication chain', () => {
  const keys = [
    { key: 'secret-one', name: 'etl', roles: ['loader'] },
    { key: 'secret-two', name: 'bi', roles: [] },
  ];
  const chain = [apiKeyAuthenticator(keys, { findByDigest: async (d) => (d.equals(digestKey('stored')) ? { name: 'admin', digest: d, roles: ['admin'] } : undefined) })];

  it.each([
    { headers: { authorization: 'Bearer secret-one' }, subject: 'etl' },
    { headers: { 'x-api-key': 'secret-two' }, subject: 'bi' },
    { headers: { authorization: 'Bearer stored' }, subject: 'admin' },
  ])('accepts $headers as $subject', async ({ headers, subject }) => {
    const decision = await authenticateCredentials(chain, extractCredentials(headers), false);
    expect(decision).toMatchObject({ ok: true, caller: { subject, authType: 'apikey' } });
  });

  it.each([
    { headers: { authorization: 'Bearer wrong' }, allowAnonymous: false },
    { headers: { 'x-api-key': 'wrong' }, allowAnonymous: false },
    { headers: { authorization: 'Bearer wrong' }, allowAnonymous: true },
    { headers: { authorization: 'Basic abc' }, allowAnonymous: true },
  ])('refuses $headers (anonymous allowed: $allowAnonymous)', async ({ headers, allowAnonymous }) => {
    const decision = await authenticateCredentials(chain, extractCredentials(headers), allowAnonymous);
    expect(decision).toMatchObject({ ok: false, error: 'invalid_token' });
  });

  it('without credentials: 401-worthy unless anonymous access is allowed', async () => {
    expect(await authenticateCredentials(chain, [], false)).toMatchObject({ ok: false, error: 'missing_credentials' });
    expect(await authenticateCredentials(chain, [], true)).toMatchObject({ ok: true, caller: { authType: 'anonymous' } });
  });

  it('keys roles to the caller', async () => {
    const decision = await authenticateCredentials(chain, extractCredentials({ 'x-api-key': 'secret-one' }), false);
    expect(decision.ok && decision.caller.roles).toEqual(['loader']);
  });
});
