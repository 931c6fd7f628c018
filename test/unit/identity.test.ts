import { describe, expect, it } from 'vitest';
import {
  apiKeyAuthenticator,
  authenticateCredentials,
  digestKey,
  extractCredentials,
  generateApiKey,
  localOperator,
  namespacedLegacySubject,
} from '../../shared/identity/index.js';
import { personUriPrefix } from '../../shared/identity/legacy-subjects.js';
import { canonicalUri } from '../../shared/resources/index.js';

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
  const stored = generateApiKey();
  const chain = [apiKeyAuthenticator(keys, { findByDigest: async (d) => (d.equals(digestKey(stored)) ? { name: 'admin', digest: d, roles: ['admin'] } : undefined) })];

  it.each([
    { headers: { authorization: 'Bearer secret-one' }, subject: 'apikey:etl', name: 'etl' },
    { headers: { 'x-api-key': 'secret-two' }, subject: 'apikey:bi', name: 'bi' },
    { headers: { authorization: `Bearer ${stored}` }, subject: 'apikey:admin', name: 'admin' },
  ])('accepts $headers as $subject', async ({ headers, subject, name }) => {
    const decision = await authenticateCredentials(chain, extractCredentials(headers), false);
    expect(decision).toMatchObject({ ok: true, caller: { subject, name, authType: 'apikey' } });
    expect(decision.ok && decision.caller.idpSubject).toBeUndefined();
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
    expect(await authenticateCredentials(chain, [], true)).toMatchObject({ ok: true, caller: { subject: 'anonymous:anonymous', authType: 'anonymous' } });
  });

  it('keys roles to the caller', async () => {
    const decision = await authenticateCredentials(chain, extractCredentials({ 'x-api-key': 'secret-one' }), false);
    expect(decision.ok && decision.caller.roles).toEqual(['loader']);
  });
});

// Issue 9 item 4: rows from before namespacing migrate by one deterministic rule.
describe('namespacedLegacySubject', () => {
  const rule = { apiKeyNames: new Set(['etl', 'shared-name']), oidcIssuer: 'https://idp.example' };
  it.each([
    { bare: 'etl', expected: 'apikey:etl' },
    { bare: 'shared-name', expected: 'apikey:shared-name' },
    { bare: 'f81d4fae', expected: 'oidc:https://idp.example#f81d4fae' },
    { bare: 'local-operator', expected: 'local:operator' },
    { bare: 'anonymous', expected: 'anonymous:anonymous' },
    // A stored auth type wins over every guess (audit rows).
    { bare: 'shared-name', authType: 'oidc', expected: 'oidc:https://idp.example#shared-name' },
    { bare: 'gone-key', authType: 'apikey', expected: 'apikey:gone-key' },
    { bare: 'x', authType: 'local', expected: 'local:operator' },
  ])('$bare ($authType) → $expected', ({ bare, authType, expected }) => {
    expect(namespacedLegacySubject(bare, rule, authType)).toBe(expected);
  });

  it('without an OIDC issuer, what is not a current key reaches nobody', () => {
    const noIssuer = { apiKeyNames: new Set(['etl']) };
    expect(namespacedLegacySubject('vanished', noIssuer)).toBe('legacy:vanished');
    expect(namespacedLegacySubject('u1', noIssuer, 'oidc')).toBe('legacy:u1');
    expect(namespacedLegacySubject('etl', noIssuer)).toBe('apikey:etl');
  });

  it('the person URI prefix it rewrites is the resources domain\'s own', () => {
    for (const subject of ['alice', 'apikey:alice', 'oidc:https://idp.example/r#a/b c']) {
      expect(canonicalUri({ kind: 'person', subject }, 'f', 'n.txt')).toBe(`${personUriPrefix(subject)}f/n.txt`);
    }
  });

  it('the local operator is local:operator', () => {
    expect(localOperator.subject).toBe('local:operator');
  });
});
