// Scripted endpoints (issue 17; spec document 3; docs/endpoints.md): bindings of scripts' handle(req) to /endpoints/{name}.
export * from './types.js';
export { readPublicEndpoint, bindingOf, BINDING_COLUMNS, type BindingRow } from './target.js';
export { recordEndpointFailure, listEndpointFailures, purgeEndpointFailures, retentionCutoff, type EndpointFailure } from './failures.js';
// Requests at /endpoints/{name}/{rest...} (issue 17, items 2-4 and 6; docs/endpoints.md, "Requests").
export { EndpointRequests, type BotCheckGate, type EndpointAuthentication, type EndpointAuthenticator, type EndpointRequest, type EndpointRequestsDeps } from './requests.js';
export { refusal, REFUSALS, type EndpointAnswer, type RefusalCode } from './answers.js';
export { matchTemplate } from './template.js';
export { CREDENTIAL_HEADERS, handlerHeaders, handlerRequest, isJsonMediaType, mediaTypeOf, type ArrivedRequest, type HandlerCaller, type HandlerRequest } from './request.js';
export { handlerAnswer, isForbiddenResponseHeader, protectiveHeaders, type HandlerAnswer } from './response.js';
export { answeredMethods, corsHeaders, isPreflight, preflightAnswer, PREFLIGHT_ALLOWED_HEADERS } from './cors.js';
export { EndpointRateLimits, HandlerSlots, MAX_RATE_BUCKETS } from './limits.js';
export { ENDPOINT_ROUTE, endpointMetrics, statusClass, type EndpointMetrics } from './metrics.js';
export { EndpointRecords, endpointAuditLog, endpointAuditTool, endpointRequestEntry, ENDPOINT_AUDIT_SOURCE, ENDPOINT_REQUEST_EVENT, type EndpointRequestRecord } from './records.js';
export { normaliseBinding, normaliseMethods, normaliseOrigins, parsePathTemplate, requireBindable, requireBindingAuthority, requireBindingRead, type BindingInput, type BindingSettings, type TemplateSegment } from './rules.js';
export { EndpointStore, RECENT_FAILURES, type BindingDetail, type BindingView, type EndpointStoreOptions, type ScriptNaming } from './store.js';
export { endpointCommands, ENDPOINT_COMMANDS, type EndpointCommand, type EndpointCommandArgs, type EndpointCommands } from './tool-commands.js';
