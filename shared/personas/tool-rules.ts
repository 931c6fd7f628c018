import { globMatcher } from '../mcp-tools/index.js';
import type { PersonaDefinition } from './resolve.js';

/** The name that, by the spec, denies every tool until someone assigns a real persona. */
export const denyAllPersonaName = 'default';

/**
 * Whether a persona may list and call a tool: the tool must match one of its `allow` globs and
 * none of its `deny` globs; `default` and no persona deny all. Unlike the global `tools.allow`
 * listing rule, an empty `allow` allows nothing (fail closed): only an absent `allow` takes the
 * default `["*"]`, and the config schema fills that in. Each persona's lists are compiled once
 * (globMatcher keeps them by list), however many tools and requests ask.
 */
export function personaAllowsTool(persona: PersonaDefinition | undefined, tool: string): boolean {
  if (!persona || persona.name === denyAllPersonaName) return false;
  return globMatcher(persona.tools.allow)(tool) && !globMatcher(persona.tools.deny)(tool);
}
