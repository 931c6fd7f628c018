import { describe, expect, it } from 'vitest';
import { personaAllowsTool, personaToolAccess, resolvePersonas, type PersonaSettings } from '../../shared/personas/index.js';
import { userMappingKeys } from '../../shared/personas/resolve.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { localOperator } from '../../shared/identity/index.js';
import { parseConfig } from '../../shared/config/index.js';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { z } from 'zod';

function persona(roles: string[], priority = 0, allow = ['*'], deny: string[] = []) {
  return { roles, priority, tools: { allow, deny }, prompts: {}, hints: {} };
}

const settings: PersonaSettings = {
  definitions: {
    analyst: persona(['analyst'], 10, ['sql_*', 'catalog_*'], ['sql_execute']),
    engineer: persona(['engineer'], 20, ['*']),
    auditor: persona(['auditor'], 20, ['catalog_*']),
    finance: persona([], 5, ['sql_query']),
    exec: persona([], 1, ['platform_info']),
    default: persona([], 0),
  },
  default_persona: 'default',
  role_mapping: {
    oidc_to_persona: { 'grp-finance': 'finance', 'grp-exec': 'exec', 'grp-ghost': 'missing' },
    user_personas: { 'cfo@example.com': 'exec' },
  },
};

const caller = (roles: string[], email?: string, subject = 'u1'): CallerContext => ({ subject, roles, authType: 'oidc', ...(email ? { email } : {}) });

describe('resolvePersonas', () => {
  it.each([
    { name: 'persona roles', who: caller(['analyst']), active: 'analyst', source: 'persona_roles', members: ['analyst'] },
    { name: 'highest priority among persona roles', who: caller(['analyst', 'engineer']), active: 'engineer', source: 'persona_roles', members: ['engineer', 'analyst'] },
    { name: 'priority tie broken by name', who: caller(['engineer', 'auditor']), active: 'auditor', source: 'persona_roles', members: ['auditor', 'engineer'] },
    { name: 'role mapping beats persona roles despite lower priority', who: caller(['engineer', 'grp-finance']), active: 'finance', source: 'role_mapping', members: ['engineer', 'finance'] },
    { name: 'user mapping beats role mapping and persona roles', who: caller(['engineer', 'grp-finance'], 'cfo@example.com'), active: 'exec', source: 'user_mapping', members: ['engineer', 'finance', 'exec'] },
    { name: 'user mapping by subject when no email', who: caller([], undefined, 'cfo@example.com'), active: 'exec', source: 'user_mapping', members: ['exec'] },
    { name: 'a mapping to an undefined persona is ignored', who: caller(['grp-ghost']), active: 'default', source: 'default', members: ['default'] },
    { name: 'no match falls back to the default persona', who: caller(['nobody']), active: 'default', source: 'default', members: ['default'] },
  ])('$name', ({ who, active, source, members }) => {
    const resolution = resolvePersonas(who, settings);
    expect(resolution.active?.name).toBe(active);
    expect(resolution.source).toBe(source);
    expect(resolution.members.map((m) => m.name)).toEqual(members);
  });

  it('no match and no default persona defined: no persona (access denied)', () => {
    const resolution = resolvePersonas(caller(['nobody']), { ...settings, default_persona: 'unset' });
    expect(resolution).toEqual({ members: [] });
  });
});

describe('persona tool rules', () => {
  const analyst = resolvePersonas(caller(['analyst']), settings).active;
  it.each([
    ['sql_query', true],
    ['catalog_search', true],
    ['sql_execute', false],
    ['objstore_get_object', false],
  ])('analyst → %s allowed=%s', (tool, allowed) => expect(personaAllowsTool(analyst, tool)).toBe(allowed));

  it('the persona named default denies every tool, even with allow *', () => {
    expect(personaAllowsTool(resolvePersonas(caller([]), settings).active, 'platform_info')).toBe(false);
  });

  it('a nil persona yields an empty tool list', () => {
    expect(personaAllowsTool(undefined, 'platform_info')).toBe(false);
  });

  // Issue 9 item 5: the global listing rule's "no patterns, everything" must not leak into personas.
  it.each(['platform_info', 'sql_query', 'anything'])('a persona with allow [] allows nothing (%s)', (tool) => {
    const none = { ...persona(['analyst'], 0, []), name: 'locked' };
    expect(personaAllowsTool(none, tool)).toBe(false);
  });

  it('only an absent allow takes the default ["*"]; an explicit [] stays empty', () => {
    const { config } = parseConfig('personas:\n  definitions:\n    open: {}\n    locked:\n      tools: { allow: [] }\n', {});
    expect(config.personas.definitions.open!.tools.allow).toEqual(['*']);
    expect(config.personas.definitions.locked!.tools.allow).toEqual([]);
    expect(personaAllowsTool({ ...config.personas.definitions.open!, name: 'open' }, 'platform_info')).toBe(true);
    expect(personaAllowsTool({ ...config.personas.definitions.locked!, name: 'locked' }, 'platform_info')).toBe(false);
  });

  it('access: hints per persona, the local operator is not filtered', () => {
    const withHints: PersonaSettings = { ...settings, definitions: { ...settings.definitions, analyst: { ...settings.definitions.analyst!, hints: { sql_query: 'Filter by region.' } } } };
    const access = personaToolAccess(withHints);
    const tool = defineTool({ name: 'sql_query', toolkit: 'sql', description: 'q', input: z.object({}), handler: async () => textResult('') });
    const analystCaller = caller(['analyst']);
    expect(access.hint!(tool, analystCaller)).toBe('Filter by region.');
    expect(access.personaOf!(analystCaller)).toBe('analyst');
    expect(access.mayUse(tool, caller([]))).toBe(false);
    expect(access.mayUse(tool, localOperator)).toBe(true);
  });
});

// Issue 9 item 4: user_personas names a caller by email, namespaced subject, or (OIDC) the raw sub — never an API key by its bare name.
describe('user_personas keys', () => {
  const mapped: PersonaSettings = {
    ...settings,
    role_mapping: { ...settings.role_mapping, user_personas: { alice: 'exec', 'apikey:etl': 'finance' } },
  };
  const key = (name: string): CallerContext => ({ subject: `apikey:${name}`, name, roles: [], authType: 'apikey' });
  const oidc = (sub: string): CallerContext => ({ subject: `oidc:https://idp.example#${sub}`, idpSubject: sub, roles: [], authType: 'oidc' });

  it.each([
    { name: 'an OIDC user by raw sub', who: oidc('alice'), active: 'exec' },
    { name: 'an API key by its namespaced subject', who: key('etl'), active: 'finance' },
    { name: 'not an API key by its bare name', who: key('alice'), active: 'default' },
    { name: 'not an OIDC user whose sub is an API key name', who: oidc('etl'), active: 'default' },
  ])('$name', ({ who, active }) => {
    expect(resolvePersonas(who, mapped).active?.name).toBe(active);
  });

  it('keys: email, subject, raw sub', () => {
    expect(userMappingKeys({ ...oidc('u1'), email: 'u@example.com' })).toEqual(['u@example.com', 'oidc:https://idp.example#u1', 'u1']);
    expect(userMappingKeys(key('etl'))).toEqual(['apikey:etl']);
  });
});

// Issue 9 item 5: prompts and resources follow the same persona gate as tools.
describe('content access', () => {
  const access = personaToolAccess(settings);
  it.each([
    { name: 'a real persona', who: caller(['analyst']), allowed: true },
    { name: 'the deny-all default persona', who: caller(['nobody']), allowed: false },
    { name: 'the local operator', who: localOperator, allowed: true },
  ])('$name → $allowed', ({ who, allowed }) => expect(access.mayUseContent(who)).toBe(allowed));

  it('no persona at all', () => {
    expect(personaToolAccess({ ...settings, default_persona: 'unset' }).mayUseContent(caller(['nobody']))).toBe(false);
  });
});

describe('resolutions remembered by identity', () => {
  it('a fresh caller object with the same identity and roles gets the same frozen resolution', () => {
    const first = resolvePersonas(caller(['analyst'], 'a@example.com', 'remembered'), settings);
    const again = resolvePersonas(caller(['analyst'], 'a@example.com', 'remembered'), settings);
    expect(again).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.members)).toBe(true);
  });

  it('anything the resolution reads tells callers apart: roles, email, subject, the provider subject', () => {
    const base = resolvePersonas(caller(['analyst'], undefined, 'who'), settings);
    expect(resolvePersonas(caller(['analyst', 'engineer'], undefined, 'who'), settings).active?.name).toBe('engineer');
    expect(resolvePersonas(caller(['analyst'], 'cfo@example.com', 'who'), settings).active?.name).toBe('exec');
    expect(resolvePersonas(caller(['analyst'], undefined, 'cfo@example.com'), settings).active?.name).toBe('exec');
    expect(resolvePersonas({ ...caller(['analyst'], undefined, 'who'), idpSubject: 'cfo@example.com' }, settings).active?.name).toBe('exec');
    // Fewer roles later (a new token): resolved for those roles, not remembered from before.
    expect(resolvePersonas(caller([], undefined, 'who'), settings).active?.name).toBe('default');
    expect(resolvePersonas(caller(['analyst'], undefined, 'who'), settings)).toBe(base);
  });

  it('stays bounded and right past its size', () => {
    for (let i = 0; i < 1100; i++) expect(resolvePersonas(caller([i % 2 ? 'engineer' : 'analyst'], undefined, `many-${i}`), settings).active?.name).toBe(i % 2 ? 'engineer' : 'analyst');
    expect(resolvePersonas(caller(['engineer'], undefined, 'many-0'), settings).active?.name).toBe('engineer');
  });
});
