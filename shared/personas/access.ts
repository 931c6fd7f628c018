import type { CallerContext } from '../identity/index.js';
import type { ToolAccess } from '../mcp-tools/index.js';
import { resolvePersonas, type PersonaResolution, type PersonaSettings } from './resolve.js';
import { personaAllowsTool } from './tool-rules.js';

/**
 * Tool access by persona: the active persona's allow/deny gates both tools/list and tools/call.
 * The local operator (stdio) acts with the operator's own rights and is not filtered. Resolutions
 * are cached per caller object, which lives as long as its session or request.
 */
export function personaToolAccess(settings: PersonaSettings): ToolAccess & { resolve(caller: CallerContext): PersonaResolution } {
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
    hint(tool, caller) {
      return resolve(caller).active?.hints[tool.name];
    },
    personaOf(caller) {
      return resolve(caller).active?.name;
    },
  };
}
