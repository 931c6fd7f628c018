// Scripted endpoints (issue 17; spec document 3; docs/endpoints.md): bindings of scripts' handle(req) to /endpoints/{name}.
export * from './types.js';
export { readEndpointTarget, bindingOf, BINDING_COLUMNS, type BindingRow } from './target.js';
export { recordEndpointFailure, listEndpointFailures, purgeEndpointFailures, retentionCutoff, type EndpointFailure } from './failures.js';
