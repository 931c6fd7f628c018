export type { PersonaDefinition, PersonaSettings, PersonaResolution, PersonaSource } from './resolve.js';
export { resolvePersonas, byPriority, isPlatformAdmin, adminByMembership } from './resolve.js';
export { personaAllowsTool, denyAllPersonaName } from './tool-rules.js';
export { personaToolAccess } from './access.js';
export { personasOverview, type PersonaOverview, type PersonasOverview } from './overview.js';
