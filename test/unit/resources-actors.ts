/** Actors for the pure authority tests: the test personas (members by role; `admin` administers the platform). */
import { parseConfig } from '../../shared/config/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { resourceActor } from '../../shared/resources/index.js';
import { personasYaml } from '../integration/resources-core-fixtures.js';

export const { config } = parseConfig(`admin:\n  persona: admin\n${personasYaml}`, {});

export const caller = (subject: string, roles: string[] = [], authType: CallerContext['authType'] = 'apikey'): CallerContext => ({ subject, roles, authType });
export const person = (subject: string, roles: string[] = []) => resourceActor(caller(subject, roles), { config, origin: 'person' });
export const agentOf = (subject: string, roles: string[] = []) => resourceActor(caller(subject, roles), { config, origin: 'agent', sessionId: 's1' });
