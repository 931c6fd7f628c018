/**
 * Who a run acts as (docs/scripts.md, "Runs"). A saved script runs as principal `script:<name>`
 * holding the roles its current version's author held when saving it, so persona filtering,
 * rate limits and audit treat it as any other caller. An unsaved source has no author of record:
 * it runs as the caller who started it, with the caller's own roles.
 */
import type { CallerContext } from '../../identity/index.js';

/** The script a principal is, carried on its caller context (writer records name it). */
export interface RunningScript {
  id: string;
  name: string;
}

export interface ScriptCaller extends CallerContext {
  authType: 'script';
  script: RunningScript;
}

export const SCRIPT_SUBJECT_PREFIX = 'script:';

/** The caller a saved script's run acts as. */
export function scriptPrincipal(script: RunningScript, authorRoles: readonly string[]): ScriptCaller {
  return { subject: `${SCRIPT_SUBJECT_PREFIX}${script.name}`, name: script.name, roles: [...authorRoles], authType: 'script', script: { ...script } };
}

/** The script a caller is, when it is a script's principal. */
export function runningScript(caller: CallerContext): RunningScript | undefined {
  return caller.authType === 'script' ? (caller as Partial<ScriptCaller>).script : undefined;
}
