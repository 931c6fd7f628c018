/**
 * The rules of an endpoint binding (pure; spec document 3, "Endpoint binding" and "Endpoint and
 * script"; docs/endpoints.md, "Binding"): a binding input checked field by field and normalised,
 * with the spec's defaults and maxima (BINDING_LIMITS), and who may set, switch and read one.
 * Every refusal is a ScriptError `invalid` (400) naming the field, or `forbidden` (403).
 */
import { scriptActions, ScriptError, type ScriptActor, type ScriptKind } from '../scripts/index.js';
import { AUTH_MODES, BINDING_LIMITS, ENDPOINT_METHODS, ENDPOINT_NAME, type EndpointBinding, type EndpointMethod } from './types.js';

/** A binding as the surfaces take it (the tool's and the REST body's field names). */
export interface BindingInput {
  endpoint?: string;
  methods?: string[];
  path?: string;
  auth_mode?: string;
  open_reads?: boolean;
  timeout_seconds?: number;
  max_memory_bytes?: number;
  max_body_bytes?: number;
  allowed_origins?: string[];
  rate_limit?: number;
  caller_rate_limit?: number;
}

/** A binding's settings, checked and normalised: what the store writes. */
export type BindingSettings = Pick<
  EndpointBinding,
  | 'endpoint'
  | 'methods'
  | 'path'
  | 'authMode'
  | 'openReads'
  | 'timeoutSeconds'
  | 'maxMemoryBytes'
  | 'maxBodyBytes'
  | 'allowedOrigins'
  | 'rateLimit'
  | 'callerRateLimit'
>;

function invalid(field: string, message: string): ScriptError {
  return new ScriptError('invalid', `${field}: ${message}`, { field });
}

/** Checks every field, fills the defaults, and answers the settings to store; throws `invalid` naming the first bad field. */
export function normaliseBinding(input: BindingInput): BindingSettings {
  if (input.endpoint === undefined || input.endpoint === '') throw invalid('endpoint', 'required (the name in /endpoints/{name})');
  if (!ENDPOINT_NAME.test(input.endpoint)) throw invalid('endpoint', `"${input.endpoint}" is not an endpoint name: 1 to 63 lowercase letters, digits, - and _`);
  if (input.auth_mode === undefined) throw invalid('auth_mode', `required: ${AUTH_MODES.join(' or ')}`);
  const authMode = AUTH_MODES.find((m) => m === input.auth_mode);
  if (!authMode) throw invalid('auth_mode', `"${input.auth_mode}" is not one of ${AUTH_MODES.join(', ')}`);
  const openReads = input.open_reads ?? false;
  if (openReads && authMode !== 'public') throw invalid('open_reads', 'applies to public endpoints only (a signed_in endpoint always needs a caller)');
  return {
    endpoint: input.endpoint,
    methods: normaliseMethods(input.methods),
    path: normalisePath(input.path ?? ''),
    authMode,
    openReads,
    timeoutSeconds: bounded('timeout_seconds', input.timeout_seconds, { default: BINDING_LIMITS.timeoutSeconds.default, min: 1, max: BINDING_LIMITS.timeoutSeconds.max }),
    maxMemoryBytes: bounded('max_memory_bytes', input.max_memory_bytes, BINDING_LIMITS.maxMemoryBytes),
    maxBodyBytes: bounded('max_body_bytes', input.max_body_bytes, { ...BINDING_LIMITS.maxBodyBytes, min: 0 }),
    allowedOrigins: normaliseOrigins(input.allowed_origins ?? []),
    rateLimit: bounded('rate_limit', input.rate_limit, { ...BINDING_LIMITS.rateLimit, min: 1 }),
    callerRateLimit: bounded('caller_rate_limit', input.caller_rate_limit, { ...BINDING_LIMITS.callerRateLimit, min: 1 }),
  };
}

function bounded(field: string, value: number | undefined, limits: { default: number; min: number; max: number }): number {
  if (value === undefined) return limits.default;
  if (!Number.isInteger(value)) throw invalid(field, `${value} is not a whole number`);
  if (value < limits.min || value > limits.max) throw invalid(field, `${value} is outside ${limits.min} to ${limits.max} (default ${limits.default})`);
  return value;
}

/**
 * Upper-cased, each once, in ENDPOINT_METHODS order; default GET. HEAD is never listed (it is
 * answered wherever GET is), nor OPTIONS (a preflight is answered from allowed_origins).
 */
export function normaliseMethods(methods: readonly string[] | undefined): EndpointMethod[] {
  if (methods === undefined) return ['GET'];
  if (methods.length === 0) throw invalid('methods', 'at least one method (default GET)');
  const asked = new Set(methods.map((m) => m.toUpperCase()));
  for (const method of asked) {
    if (method === 'HEAD') throw invalid('methods', 'HEAD is not listed: it is answered wherever GET is');
    if (!(ENDPOINT_METHODS as readonly string[]).includes(method)) throw invalid('methods', `"${method}" is not one of ${ENDPOINT_METHODS.join(', ')}`);
  }
  return ENDPOINT_METHODS.filter((m) => asked.has(m));
}

/** One segment of a path template: a literal matched as written, or a parameter taking one segment. */
export type TemplateSegment = { literal: string } | { param: string };

const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const PARAM_SEGMENT = /^\{([A-Za-z][A-Za-z0-9_]{0,62})\}$/;

/**
 * A path template's segments. Grammar (docs/endpoints.md): empty, or one or more `/segment`, at
 * most BINDING_LIMITS.maxPathLength characters; a segment is wholly a literal (URL-unreserved
 * characters `A-Z a-z 0-9 - . _ ~`, not `.` or `..`) or wholly a parameter `{name}` (a letter, then
 * letters, digits, `_`; each name once), read as req.params.name.
 */
export function parsePathTemplate(path: string): TemplateSegment[] {
  if (path === '') return [];
  if (path.length > BINDING_LIMITS.maxPathLength) throw invalid('path', `longer than ${BINDING_LIMITS.maxPathLength} characters`);
  if (!path.startsWith('/')) throw invalid('path', `"${path}" must be empty or start with /`);
  const names = new Set<string>();
  return path
    .slice(1)
    .split('/')
    .map((segment): TemplateSegment => {
      const param = PARAM_SEGMENT.exec(segment)?.[1];
      if (param !== undefined) {
        if (names.has(param)) throw invalid('path', `the parameter {${param}} appears twice`);
        names.add(param);
        return { param };
      }
      if (segment === '') throw invalid('path', `"${path}" has an empty segment (no trailing or double /; empty for the endpoint's own path)`);
      if (segment === '.' || segment === '..' || !LITERAL_SEGMENT.test(segment)) {
        throw invalid('path', `"${segment}" is neither a literal (letters, digits, - . _ ~) nor a parameter {name}`);
      }
      return { literal: segment };
    });
}

function normalisePath(path: string): string {
  parsePathTemplate(path);
  return path;
}

const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?$/i;

/**
 * Each entry a browser origin `scheme://host[:port]` (http or https; no path, query, fragment,
 * credentials or wildcard), as browsers send it: lower-cased, the default port dropped; each once.
 */
export function normaliseOrigins(origins: readonly string[]): string[] {
  if (origins.length > BINDING_LIMITS.maxAllowedOrigins) throw invalid('allowed_origins', `at most ${BINDING_LIMITS.maxAllowedOrigins} origins`);
  const normalised = origins.map((origin) => {
    if (origin.includes('*')) throw invalid('allowed_origins', `"${origin}": no wildcards, list each origin`);
    const url = ORIGIN_SHAPE.test(origin) ? parseUrl(origin) : undefined;
    if (!url) throw invalid('allowed_origins', `"${origin}" is not an origin scheme://host[:port] (no path, query or fragment)`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('allowed_origins', `"${origin}": only http and https origins`);
    if (url.username !== '' || url.password !== '') throw invalid('allowed_origins', `"${origin}": an origin has no credentials`);
    return url.origin;
  });
  return [...new Set(normalised)];
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Binding is an administrator's act on every surface (setting a binding, turning it on or off):
 * a script run may not, whatever its roles; nor may anyone but a platform administrator, owners included.
 */
export function requireBindingAuthority(actor: ScriptActor, action: string): void {
  if (actor.authType === 'script') throw new ScriptError('forbidden', `a script run may read a binding but may not ${action} it`);
  if (!actor.platformAdmin) throw new ScriptError('forbidden', `only platform administrators ${action} an endpoint binding`);
}

/** A binding (and its failed requests, with the script's errors) is read by the script's owner and administrators. */
export function requireBindingRead(actor: ScriptActor, script: { name: string; kind: ScriptKind; ownerSubject: string }): void {
  if (!scriptActions(actor, script).change) {
    throw new ScriptError('forbidden', `not allowed to read the binding of "${script.name}": only its owner (${script.ownerSubject}) and administrators do`);
  }
}

/** Only a script whose current version defines handle(req) is bound; never a library. */
export function requireBindable(script: { name: string; kind: ScriptKind; entryPoints: readonly string[] }): void {
  if (script.kind === 'library') throw new ScriptError('invalid', `"${script.name}" is a library (it exports neither main nor handle): only a script defining handle(req) can be bound`);
  if (!script.entryPoints.includes('handle')) throw new ScriptError('invalid', `"${script.name}" does not define handle(req): its current version exports ${script.entryPoints.join(', ')} only`);
}
