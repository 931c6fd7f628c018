/** Names for the script answers the script pages use, and how their states read. */
import type { Answer } from '../../api/types';

export type ScriptDetail = Answer<'getScript'>;
export type ScriptRun = Answer<'listScriptRuns'>['runs'][number];
export type Schedule = Answer<'getScriptSchedule'>;
export type Binding = Answer<'getScriptEndpoint'>['binding'];
export type EndpointFailure = Answer<'getScriptEndpoint'>['failures'][number];
export type DraftRun = Answer<'runInlineScript'>;

export function scriptStateTone(state: ScriptDetail['state']): 'ok' | 'off' | 'warn' {
  return state === 'active' ? 'ok' : state === 'disabled' ? 'off' : 'warn';
}

export function runTone(status: ScriptRun['status']): 'ok' | 'bad' | 'warn' {
  return status === 'ok' ? 'ok' : status === 'busy' ? 'warn' : 'bad';
}

export const ENDPOINT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
