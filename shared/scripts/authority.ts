/**
 * Who may do what with a script (pure; docs/scripts.md, "Authority"). Everyone who may use
 * `manage_script` (the persona rule, checked by the surfaces) creates scripts, which they own,
 * and sees every script's name, kind, state, owner and versions. Changes — a new version, a state
 * change, deletion — are the owner's and administrators'; only administrators change another
 * owner's script. A script's source is read by its owner and administrators; a library's source
 * by everyone, since anyone's script may import it and so runs it.
 */
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { adminByMembership, personaAllowsTool, resolvePersonas } from '../personas/index.js';
import { ScriptError, type ScriptActions, type ScriptActor, type ScriptKind } from './types.js';

/** The script rules' view of a caller; `sessionId` for an MCP tool call. */
export function scriptActor(caller: CallerContext, config: Pick<PlatformConfig, 'personas' | 'admin'>, sessionId?: string): ScriptActor {
  const resolution = resolvePersonas(caller, config.personas);
  const platformAdmin = adminByMembership(caller, resolution.members, config.admin.persona);
  return {
    subject: caller.subject,
    ...(caller.email ? { email: caller.email } : {}),
    roles: [...caller.roles],
    platformAdmin,
    authType: caller.authType,
    ...(resolution.active ? { persona: resolution.active.name } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
}

interface Owned {
  name: string;
  kind: ScriptKind;
  ownerSubject: string;
}

function owns(actor: ScriptActor, script: Owned): boolean {
  // Anonymous callers share one subject, so none of them owns anything.
  return actor.authType !== 'anonymous' && actor.subject === script.ownerSubject;
}

export function scriptActions(actor: ScriptActor, script: Owned): ScriptActions {
  const change = actor.platformAdmin || owns(actor, script);
  return { change, read_source: change || script.kind === 'library' };
}

/** Refuses (403) a change by someone who is neither the owner nor an administrator. */
export function requireChange(actor: ScriptActor, script: Owned, action: string): void {
  if (!scriptActions(actor, script).change) {
    throw new ScriptError('forbidden', `not allowed to ${action} "${script.name}": only its owner (${script.ownerSubject}) and administrators change a script`);
  }
}

/** Anonymous callers own nothing, so they create nothing. */
export function requireCreate(actor: ScriptActor): void {
  if (actor.authType === 'anonymous') throw new ScriptError('forbidden', 'sign in to create scripts: a script has an owner');
}

/** The tool whose persona rule admits a caller to scripts on every surface (MCP and the portal's REST routes). */
export const MANAGE_SCRIPT_TOOL = 'manage_script';

/** Whether the caller's active persona allows `manage_script` (the local operator always may). */
export function mayManageScripts(caller: CallerContext, config: Pick<PlatformConfig, 'personas'>): boolean {
  if (caller.authType === 'local') return true;
  return personaAllowsTool(resolvePersonas(caller, config.personas).active, MANAGE_SCRIPT_TOOL);
}
