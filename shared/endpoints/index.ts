// Scripted endpoints (issue 17; spec document 3; docs/endpoints.md): bindings of scripts' handle(req) to /endpoints/{name}.
export * from './types.js';
export { readEndpointTarget, readPublicEndpoint, bindingOf, BINDING_COLUMNS, type BindingRow } from './target.js';
export { recordEndpointFailure, listEndpointFailures, purgeEndpointFailures, retentionCutoff, type EndpointFailure } from './failures.js';
export { normaliseBinding, normaliseMethods, normaliseOrigins, parsePathTemplate, requireBindable, requireBindingAuthority, requireBindingRead, type BindingInput, type BindingSettings, type TemplateSegment } from './rules.js';
export { EndpointStore, RECENT_FAILURES, type BindingDetail, type BindingView, type EndpointStoreOptions, type ScriptNaming } from './store.js';
export { endpointCommands, ENDPOINT_COMMANDS, type EndpointCommand, type EndpointCommandArgs, type EndpointCommands } from './tool-commands.js';
