import type { CallerContext } from '../identity/index.js';

export interface PersonaDefinition {
  name: string;
  display_name?: string;
  description?: string;
  roles: readonly string[];
  tools: { allow: readonly string[]; deny: readonly string[] };
  prompts: { system_prefix?: string; system_suffix?: string; instructions?: string };
  hints: Readonly<Record<string, string>>;
  priority: number;
}

export interface PersonaSettings {
  definitions: Readonly<Record<string, Omit<PersonaDefinition, 'name'>>>;
  default_persona: string;
  role_mapping: {
    oidc_to_persona: Readonly<Record<string, string>>;
    user_personas: Readonly<Record<string, string>>;
  };
}

/** How the active persona was chosen, strongest first. */
export type PersonaSource = 'user_mapping' | 'role_mapping' | 'persona_roles' | 'default';

export interface PersonaResolution {
  /** The persona whose tool rules apply; undefined means access denied. */
  active?: PersonaDefinition;
  source?: PersonaSource;
  /** Every persona the caller matches (library membership and the like). */
  members: PersonaDefinition[];
}

/** Higher priority first; equal priorities by name, so the choice never depends on map order. */
export function byPriority(a: PersonaDefinition, b: PersonaDefinition): number {
  return b.priority - a.priority || a.name.localeCompare(b.name);
}

/** Every definition with its name, built once per settings object (the parsed config never changes). */
const namedDefinitions = new WeakMap<PersonaSettings, ReadonlyMap<string, PersonaDefinition>>();

function personasOf(settings: PersonaSettings): ReadonlyMap<string, PersonaDefinition> {
  let named = namedDefinitions.get(settings);
  if (!named) {
    named = new Map(Object.entries(settings.definitions).map(([name, def]) => [name, { ...def, name }]));
    namedDefinitions.set(settings, named);
  }
  return named;
}

function defined(settings: PersonaSettings, name: string | undefined): PersonaDefinition | undefined {
  return name === undefined ? undefined : personasOf(settings).get(name);
}

/**
 * The names `role_mapping.user_personas` may give a caller, strongest first: its email, its
 * namespaced subject (`apikey:etl`, `oidc:<issuer>#<sub>`), and the identity provider's raw `sub`
 * (only callers an identity provider vouches for carry one). An API key is never matched by its
 * bare name, which could equal some OIDC user's `sub`, nor an OIDC user by an API key's name.
 */
export function userMappingKeys(caller: CallerContext): string[] {
  return [...new Set([caller.email, caller.subject, caller.idpSubject].filter((k): k is string => Boolean(k)))];
}

/**
 * Maps a caller to personas. The spec leaves precedence open; ours, strongest first:
 *  1. `role_mapping.user_personas` — an explicit assignment of this user (see userMappingKeys);
 *  2. `role_mapping.oidc_to_persona` — the caller's roles mapped to personas;
 *  3. persona `roles` — personas that list one of the caller's roles.
 * Within the strongest tier that matched, the highest priority wins, ties by name. With no match
 * the caller gets `personas.default_persona` if it is defined (a persona named `default` denies
 * every tool); otherwise no persona, and access is denied.
 */
export function resolvePersonas(caller: CallerContext, settings: PersonaSettings): PersonaResolution {
  let cache = resolutions.get(settings);
  if (!cache) resolutions.set(settings, (cache = new Map()));
  // Everything the resolution reads of the caller, so equal keys resolve alike.
  const key = JSON.stringify([userMappingKeys(caller), caller.roles]);
  let resolution = cache.get(key);
  if (!resolution) {
    resolution = Object.freeze(resolveAnew(caller, settings));
    Object.freeze(resolution.members);
    if (cache.size >= maxResolutions) cache.delete(cache.keys().next().value!);
    cache.set(key, resolution);
  }
  return resolution;
}

/**
 * Resolutions by the caller's identity and roles, per settings object (the parsed config never
 * changes): every request authenticates into a fresh caller, and resolving anew per request was
 * ~2.5% of an MCP tools/call's CPU. Shared, so frozen; bounded, the oldest forgotten first.
 */
const resolutions = new WeakMap<PersonaSettings, Map<string, PersonaResolution>>();
const maxResolutions = 1024;

function resolveAnew(caller: CallerContext, settings: PersonaSettings): PersonaResolution {
  const roles = new Set(caller.roles);
  const fromUser = userMappingKeys(caller).map((k) => defined(settings, settings.role_mapping.user_personas[k])).filter((p) => p !== undefined);
  const fromRoleMapping = [...roles]
    .map((role) => defined(settings, settings.role_mapping.oidc_to_persona[role]))
    .filter((p) => p !== undefined);
  const fromPersonaRoles = [...personasOf(settings).values()].filter((p) => p.roles.some((r) => roles.has(r)));

  const members = new Map<string, PersonaDefinition>();
  for (const p of [...fromUser, ...fromRoleMapping, ...fromPersonaRoles]) members.set(p.name, p);
  const tiers: Array<[PersonaSource, PersonaDefinition[]]> = [
    ['user_mapping', fromUser],
    ['role_mapping', fromRoleMapping],
    ['persona_roles', fromPersonaRoles],
  ];
  for (const [source, tier] of tiers) {
    const active = [...tier].sort(byPriority)[0];
    if (active) return { active, source, members: [...members.values()].sort(byPriority) };
  }
  const fallback = defined(settings, settings.default_persona);
  return fallback ? { active: fallback, source: 'default', members: [fallback] } : { members: [] };
}

/**
 * A platform administrator: a member of the persona `admin.persona` names (any persona the caller
 * matches, not only the active one), or the local operator (stdio).
 */
export function isPlatformAdmin(caller: CallerContext, settings: PersonaSettings, adminPersona: string): boolean {
  return adminByMembership(caller, resolvePersonas(caller, settings).members, adminPersona);
}

/** isPlatformAdmin for a caller whose personas are already resolved (`members`). */
export function adminByMembership(caller: CallerContext, members: readonly PersonaDefinition[], adminPersona: string): boolean {
  return caller.authType === 'local' || members.some((p) => p.name === adminPersona);
}
