import type { CallerContext } from '../identity/index.js';
import type { ToolAccess } from '../mcp-tools/index.js';
import { resolvePersonas, type PersonaResolution, type PersonaSettings } from './resolve.js';
import { denyAllPersonaName, personaAllowsTool } from './tool-rules.js';

export interface PersonaAccess extends ToolAccess {
  resolve(caller: CallerContext): PersonaResolution;
  /**
   * Whether the caller gets prompts and MCP resources at all. The same gate as tools: no persona,
   * or the deny-all persona `default`, gets none; the local operator gets everything.
   */
  mayUseContent(caller: CallerContext): boolean;
}

/**
 * Tool access by persona: the active persona's allow/deny gates both tools/list and tools/call.
 * The local operator (stdio) acts with the operator's own rights and is not filtered. Each caller
 * object keeps its resolution (a listing asks once per tool); resolvePersonas remembers them by
 * identity and roles, so a token with fewer roles still gets fewer tools.
 */
export function personaToolAccess(settings: PersonaSettings): PersonaAccess {
  const cache = new WeakMap<CallerContext, PersonaResolution>();
  const resolve = (caller: CallerContext): PersonaResolution => {
    let resolution = cache.get(caller);
    if (!resolution) {
      resolution = resolvePersonas(caller, settings);
      cache.set(caller, resolution);
    }
    return resolution;
  };
  return {
    resolve,
    mayUse(tool, caller) {
      if (caller.authType === 'local') return true;
      return personaAllowsTool(resolve(caller).active, tool.name);
    },
    mayUseContent(caller) {
      if (caller.authType === 'local') return true;
      const active = resolve(caller).active;
      return active !== undefined && active.name !== denyAllPersonaName;
    },
    hint(tool, caller) {
      return resolve(caller).active?.hints[tool.name];
    },
    personaOf(caller) {
      return resolve(caller).active?.name;
    },
  };
}
