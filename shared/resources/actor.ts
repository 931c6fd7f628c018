/** Builds the ResourceActor authority needs from an authenticated caller and the config. */
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { adminByMembership, resolvePersonas } from '../personas/index.js';
import type { ResourceActor } from './types.js';

export const PERSONA_ADMIN_ROLE_PREFIX = 'persona-admin:';

export interface ResourceActorOptions {
  config: Pick<PlatformConfig, 'personas' | 'admin'>;
  /** The MCP session, for agent writer records. */
  sessionId?: string;
  /** `person`: the portal or REST; `agent`: an MCP tool call or resources/read. */
  origin: 'person' | 'agent';
}

/**
 * Membership is every persona the caller matches (not only the active one); persona admin comes
 * from `persona-admin:<name>` roles; a platform administrator is a member of `admin.persona`, and
 * the stdio local operator is always one. An agent without a session id (stdio) is recorded as
 * the session `stdio`.
 */
export function resourceActor(caller: CallerContext, opts: ResourceActorOptions): ResourceActor {
  const resolution = resolvePersonas(caller, opts.config.personas);
  const personas = resolution.members.map((p) => p.name);
  const adminOfPersonas = caller.roles
    .filter((r) => r.startsWith(PERSONA_ADMIN_ROLE_PREFIX) && r.length > PERSONA_ADMIN_ROLE_PREFIX.length)
    .map((r) => r.slice(PERSONA_ADMIN_ROLE_PREFIX.length));
  const platformAdmin = adminByMembership(caller, resolution.members, opts.config.admin.persona);
  return {
    subject: caller.subject,
    ...(caller.email ? { email: caller.email } : {}),
    personas,
    adminOfPersonas: [...new Set(adminOfPersonas)],
    platformAdmin,
    writer:
      opts.origin === 'agent'
        ? { kind: 'agent_session', sessionId: opts.sessionId ?? 'stdio' }
        : { kind: 'person', subject: caller.subject },
    authType: caller.authType,
    ...(resolution.active ? { activePersona: resolution.active.name } : {}),
    configuredPersonas: Object.keys(opts.config.personas.definitions),
  };
}
