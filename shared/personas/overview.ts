/**
 * The personas as an administrator reads them (the admin API's personas route): each definition
 * with every default applied, the tools it lets its members call among those the platform serves
 * (the same rule as tools/call: personaAllowsTool), and who its members are — the roles that map
 * to it (its own `roles` and `role_mapping.oidc_to_persona`), the users `role_mapping.user_personas`
 * assigns to it, and the API keys whose roles make them members (resolvePersonas, as every request).
 */
import type { CallerContext } from '../identity/index.js';
import { resolvePersonas, type PersonaDefinition, type PersonaSettings } from './resolve.js';
import { denyAllPersonaName, personaAllowsTool } from './tool-rules.js';

export interface PersonaOverview {
  name: string;
  display_name: string | null;
  description: string | null;
  priority: number;
  /** The persona named by admin.persona: its members are platform administrators. */
  administrators: boolean;
  /** personas.default_persona: callers matching no persona get it. */
  is_default: boolean;
  tools: { allow: string[]; deny: string[]; effective: string[] };
  prompts: { system_prefix: string | null; system_suffix: string | null; instructions: string | null };
  hints: Record<string, string>;
  members: {
    /** Roles that make a caller a member: the persona's own roles and the role mappings to it. */
    roles: Array<{ role: string; via: 'persona_roles' | 'role_mapping' }>;
    /** Users role_mapping.user_personas assigns to it (an email, a subject or an identity provider's sub). */
    users: string[];
    /** API keys whose roles make them members (configured ones and the ones the platform created). */
    api_keys: Array<{ name: string; roles: string[]; active: boolean }>;
  };
}

export interface PersonasOverview {
  admin_persona: string;
  default_persona: string;
  /** Whether default_persona names a defined persona (else callers matching none are refused). */
  default_defined: boolean;
  personas: PersonaOverview[];
  role_mapping: { oidc_to_persona: Record<string, string>; user_personas: Record<string, string> };
}

export function personasOverview(
  settings: PersonaSettings,
  opts: { adminPersona: string; toolNames: readonly string[]; apiKeys: ReadonlyArray<{ name: string; roles: readonly string[] }> },
): PersonasOverview {
  const keyResolutions = opts.apiKeys.map((key) => {
    const caller: CallerContext = { subject: `apikey:${key.name}`, roles: [...key.roles], authType: 'apikey' };
    return { key, resolution: resolvePersonas(caller, settings) };
  });
  const tools = [...opts.toolNames].sort();
  const personas = Object.entries(settings.definitions)
    .map(([name, def]): PersonaDefinition => ({ ...def, name }))
    .sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name))
    .map((p): PersonaOverview => ({
      name: p.name,
      display_name: p.display_name ?? null,
      description: p.description ?? null,
      priority: p.priority,
      administrators: p.name === opts.adminPersona,
      is_default: p.name === settings.default_persona,
      tools: {
        allow: [...p.tools.allow],
        deny: [...p.tools.deny],
        effective: p.name === denyAllPersonaName ? [] : tools.filter((tool) => personaAllowsTool(p, tool)),
      },
      prompts: { system_prefix: p.prompts.system_prefix ?? null, system_suffix: p.prompts.system_suffix ?? null, instructions: p.prompts.instructions ?? null },
      hints: { ...p.hints },
      members: {
        roles: [
          ...p.roles.map((role) => ({ role, via: 'persona_roles' as const })),
          ...Object.entries(settings.role_mapping.oidc_to_persona)
            .filter(([, persona]) => persona === p.name)
            .map(([role]) => ({ role, via: 'role_mapping' as const })),
        ],
        users: Object.entries(settings.role_mapping.user_personas)
          .filter(([, persona]) => persona === p.name)
          .map(([user]) => user)
          .sort(),
        api_keys: keyResolutions
          .filter(({ resolution }) => resolution.members.some((m) => m.name === p.name))
          .map(({ key, resolution }) => ({ name: key.name, roles: [...key.roles], active: resolution.active?.name === p.name }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      },
    }));
  return {
    admin_persona: opts.adminPersona,
    default_persona: settings.default_persona,
    default_defined: settings.default_persona in settings.definitions,
    personas,
    role_mapping: { oidc_to_persona: { ...settings.role_mapping.oidc_to_persona }, user_personas: { ...settings.role_mapping.user_personas } },
  };
}
