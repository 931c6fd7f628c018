import { allowDenyFilter } from '../mcp-tools/index.js';
import type { PersonaDefinition } from './resolve.js';

/** The name that, by the spec, denies every tool until someone assigns a real persona. */
export const denyAllPersonaName = 'default';

/** Whether a persona may list and call a tool: glob allow, then deny; `default` and no persona deny all. */
export function personaAllowsTool(persona: PersonaDefinition | undefined, tool: string): boolean {
  if (!persona || persona.name === denyAllPersonaName) return false;
  return allowDenyFilter(persona.tools.allow, persona.tools.deny)(tool);
}
