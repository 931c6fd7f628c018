/** Spec document 3, "Endpoint binding": each field's rule, default and maximum, and who may bind (shared/endpoints/rules.ts). */
import { describe, expect, it } from 'vitest';
import {
  BINDING_LIMITS,
  normaliseBinding,
  parsePathTemplate,
  requireBindable,
  requireBindingAuthority,
  requireBindingRead,
  type BindingInput,
} from '../../shared/endpoints/index.js';
import { ScriptError, type ScriptActor } from '../../shared/scripts/index.js';

const MiB = 1024 * 1024;
const minimal = { endpoint: 'lookup', auth_mode: 'signed_in' } as const;

function refusal(run: () => unknown, code = 'invalid'): { message: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (error instanceof ScriptError && error.code === code) return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error('accepted');
}

const refused = (input: BindingInput) => refusal(() => normaliseBinding(input));

describe('binding fields and their defaults', () => {
  it('fills every default of the spec table', () => {
    expect(normaliseBinding(minimal)).toEqual({
      endpoint: 'lookup',
      methods: ['GET'],
      path: '',
      authMode: 'signed_in',
      openReads: false,
      timeoutSeconds: 10,
      maxMemoryBytes: 64 * MiB,
      maxBodyBytes: 1 * MiB,
      allowedOrigins: [],
      rateLimit: 600,
      callerRateLimit: 120,
    });
  });

  it('endpoint: required; lowercase letters, digits, hyphens, underscores, at most 63', () => {
    expect(normaliseBinding({ ...minimal, endpoint: 'a-b_9' }).endpoint).toBe('a-b_9');
    expect(normaliseBinding({ ...minimal, endpoint: 'x'.repeat(63) }).endpoint).toHaveLength(63);
    expect(refused({ auth_mode: 'public' })).toMatchObject({ message: /endpoint: required/, details: { field: 'endpoint' } });
    for (const name of ['Lookup', 'a b', 'a/b', 'a.b', 'x'.repeat(64), 'é']) expect(refused({ ...minimal, endpoint: name }).details).toEqual({ field: 'endpoint' });
  });

  it('auth_mode: required, signed_in or public', () => {
    expect(normaliseBinding({ ...minimal, auth_mode: 'public' }).authMode).toBe('public');
    expect(refused({ endpoint: 'x' }).message).toMatch(/auth_mode: required/);
    expect(refused({ ...minimal, auth_mode: 'anyone' }).message).toMatch(/auth_mode: "anyone" is not one of signed_in, public/);
  });

  it('methods: a non-empty subset of GET, POST, PUT, PATCH, DELETE, upper-cased, each once; HEAD never listed', () => {
    expect(normaliseBinding({ ...minimal, methods: ['post', 'get', 'POST', 'delete'] }).methods).toEqual(['GET', 'POST', 'DELETE']);
    expect(refused({ ...minimal, methods: [] }).message).toMatch(/at least one method/);
    expect(refused({ ...minimal, methods: ['GET', 'HEAD'] }).message).toMatch(/HEAD is not listed: it is answered wherever GET is/);
    expect(refused({ ...minimal, methods: ['OPTIONS'] }).message).toMatch(/"OPTIONS" is not one of/);
    expect(refused({ ...minimal, methods: ['TRACE'] }).details).toEqual({ field: 'methods' });
  });

  it('open_reads: public endpoints only', () => {
    expect(normaliseBinding({ ...minimal, auth_mode: 'public', open_reads: true }).openReads).toBe(true);
    expect(refused({ ...minimal, open_reads: true }).message).toMatch(/open_reads: applies to public endpoints only/);
  });

  it('timeout_seconds: default 10, 1 to 60, whole seconds', () => {
    expect(normaliseBinding({ ...minimal, timeout_seconds: 60 }).timeoutSeconds).toBe(60);
    expect(normaliseBinding({ ...minimal, timeout_seconds: 1 }).timeoutSeconds).toBe(1);
    expect(refused({ ...minimal, timeout_seconds: 61 }).message).toMatch(/timeout_seconds: 61 is outside 1 to 60/);
    expect(refused({ ...minimal, timeout_seconds: 0 }).details).toEqual({ field: 'timeout_seconds' });
    expect(refused({ ...minimal, timeout_seconds: 1.5 }).message).toMatch(/not a whole number/);
  });

  it('max_memory_bytes: default 64 MiB, from the sandbox floor of 16 MiB to 256 MiB', () => {
    expect(BINDING_LIMITS.maxMemoryBytes).toEqual({ default: 64 * MiB, min: 16 * MiB, max: 256 * MiB });
    expect(normaliseBinding({ ...minimal, max_memory_bytes: 16 * MiB }).maxMemoryBytes).toBe(16 * MiB);
    expect(normaliseBinding({ ...minimal, max_memory_bytes: 256 * MiB }).maxMemoryBytes).toBe(256 * MiB);
    expect(refused({ ...minimal, max_memory_bytes: 16 * MiB - 1 }).details).toEqual({ field: 'max_memory_bytes' });
    expect(refused({ ...minimal, max_memory_bytes: 256 * MiB + 1 }).details).toEqual({ field: 'max_memory_bytes' });
  });

  it('max_body_bytes: default 1 MiB, at most 10 MiB (0: no body)', () => {
    expect(normaliseBinding({ ...minimal, max_body_bytes: 10 * MiB }).maxBodyBytes).toBe(10 * MiB);
    expect(normaliseBinding({ ...minimal, max_body_bytes: 0 }).maxBodyBytes).toBe(0);
    expect(refused({ ...minimal, max_body_bytes: 10 * MiB + 1 }).message).toMatch(/max_body_bytes: 10485761 is outside 0 to 10485760/);
    expect(refused({ ...minimal, max_body_bytes: -1 }).details).toEqual({ field: 'max_body_bytes' });
  });

  it('rate_limit and caller_rate_limit: defaults 600 and 120 per minute, at least 1', () => {
    expect(normaliseBinding({ ...minimal, rate_limit: 1, caller_rate_limit: 100_000 })).toMatchObject({ rateLimit: 1, callerRateLimit: 100_000 });
    expect(refused({ ...minimal, rate_limit: 0 }).details).toEqual({ field: 'rate_limit' });
    expect(refused({ ...minimal, caller_rate_limit: 100_001 }).details).toEqual({ field: 'caller_rate_limit' });
  });
});

describe('path templates', () => {
  it('empty, or literal and {param} segments', () => {
    expect(parsePathTemplate('')).toEqual([]);
    expect(parsePathTemplate('/items/{id}/v1.2~x')).toEqual([{ literal: 'items' }, { param: 'id' }, { literal: 'v1.2~x' }]);
    expect(parsePathTemplate('/{orgId}/{item_2}')).toEqual([{ param: 'orgId' }, { param: 'item_2' }]);
    expect(normaliseBinding({ ...minimal, path: '/items/{id}' }).path).toBe('/items/{id}');
  });

  it('refuses a parameter named twice, empty segments, dot segments, mixed segments and other characters', () => {
    expect(refused({ ...minimal, path: '/{id}/{id}' }).message).toMatch(/\{id\} appears twice/);
    expect(refused({ ...minimal, path: 'items' }).message).toMatch(/must be empty or start with \//);
    for (const path of ['/', '/items/', '//items', '/a//b']) expect(refused({ ...minimal, path }).message).toMatch(/empty segment/);
    for (const path of ['/..', '/.', '/item-{id}', '/{1d}', '/{__proto__}', '/a b', '/a%20b', '/a?b', '/{}']) {
      expect(refused({ ...minimal, path }).details, path).toEqual({ field: 'path' });
    }
    expect(refused({ ...minimal, path: `/${'a'.repeat(256)}` }).message).toMatch(/longer than 256/);
  });
});

describe('allowed_origins', () => {
  it('each an origin scheme://host[:port], normalised as browsers send it, each once', () => {
    expect(normaliseBinding({ ...minimal, allowed_origins: ['https://App.Example.com', 'https://app.example.com:443', 'http://localhost:5173/', 'https://[::1]:8443'] }).allowedOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'https://[::1]:8443',
    ]);
  });

  it('refuses paths, queries, fragments, wildcards, credentials and other schemes', () => {
    for (const origin of ['https://a.example/app', 'https://a.example?x=1', 'https://a.example#f', 'https://a.example//', 'a.example', '*', 'https://*.example.com', 'null']) {
      expect(refused({ ...minimal, allowed_origins: [origin] }).details, origin).toEqual({ field: 'allowed_origins' });
    }
    expect(refused({ ...minimal, allowed_origins: ['https://*.example.com'] }).message).toMatch(/no wildcards/);
    expect(refused({ ...minimal, allowed_origins: ['https://u:p@a.example'] }).message).toMatch(/no credentials/);
    expect(refused({ ...minimal, allowed_origins: ['ftp://a.example'] }).message).toMatch(/only http and https/);
    expect(refused({ ...minimal, allowed_origins: Array.from({ length: 51 }, (_, i) => `https://a${i}.example`) }).message).toMatch(/at most 50/);
  });
});

describe('who may bind and read', () => {
  const actor = (over: Partial<ScriptActor>): ScriptActor => ({ subject: 'apikey:x', roles: [], platformAdmin: false, authType: 'apikey', ...over });
  const script = { name: 'job', kind: 'script' as const, ownerSubject: 'apikey:owner' };

  it('binding (set, enable, disable) is an administrator act, never a script run, whatever its roles', () => {
    expect(() => requireBindingAuthority(actor({ platformAdmin: true }), 'set')).not.toThrow();
    expect(() => requireBindingAuthority(actor({ platformAdmin: true, authType: 'local' }), 'set')).not.toThrow();
    expect(refusal(() => requireBindingAuthority(actor({ subject: 'apikey:owner' }), 'set'), 'forbidden').message).toMatch(/only platform administrators set/);
    expect(refusal(() => requireBindingAuthority(actor({ subject: 'script:job', platformAdmin: true, authType: 'script' }), 'enable'), 'forbidden').message).toMatch(
      /a script run may read a binding but may not enable it/,
    );
  });

  it('reading: the owner and administrators (a script run too, by the same rule)', () => {
    expect(() => requireBindingRead(actor({ subject: 'apikey:owner' }), script)).not.toThrow();
    expect(() => requireBindingRead(actor({ platformAdmin: true, authType: 'script', subject: 'script:other' }), script)).not.toThrow();
    expect(refusal(() => requireBindingRead(actor({}), script), 'forbidden').message).toMatch(/only its owner/);
  });

  it('only a script defining handle(req) is bound, never a library', () => {
    expect(() => requireBindable({ name: 'h', kind: 'script', entryPoints: ['main', 'handle'] })).not.toThrow();
    expect(refusal(() => requireBindable({ name: 'm', kind: 'script', entryPoints: ['main'] })).message).toMatch(/"m" does not define handle\(req\): its current version exports main only/);
    expect(refusal(() => requireBindable({ name: 'lib', kind: 'library', entryPoints: [] })).message).toMatch(/"lib" is a library/);
  });
});
