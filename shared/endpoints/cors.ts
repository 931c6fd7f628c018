/**
 * An endpoint's own CORS (spec document 3, "Scripted endpoints", CORS): it answers cross-origin
 * requests from its `allowed_origins` only, echoing the listed origin; credentials are never
 * allowed across origins (no Access-Control-Allow-Credentials, so a browser sends no cookie and
 * reads no answer of a credentialed request). A preflight from a listed origin gets the methods
 * the endpoint answers and the four request headers a caller may send; from any other origin 403.
 * Pure; the platform's other CORS layers do not touch /endpoints/.
 */
import type { EndpointBinding } from './types.js';

/** The request headers a cross-origin caller may send. */
export const PREFLIGHT_ALLOWED_HEADERS = 'Content-Type, Authorization, X-API-Key, X-Bot-Check';

/** How long a browser may cache a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** The methods the endpoint answers: its own, plus HEAD wherever GET. */
export function answeredMethods(binding: Pick<EndpointBinding, 'methods'>): string[] {
  return binding.methods.includes('GET') ? [...binding.methods, 'HEAD'] : [...binding.methods];
}

export function isPreflight(method: string, headers: Record<string, string | string[] | undefined>): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

function listed(binding: Pick<EndpointBinding, 'allowedOrigins'>, origin: string | undefined): origin is string {
  return origin !== undefined && binding.allowedOrigins.includes(origin);
}

/**
 * The CORS headers of an answer to `origin`: Access-Control-Allow-Origin for a listed origin, and
 * Vary: Origin whenever the endpoint lists any (the answer depends on the Origin header).
 */
export function corsHeaders(binding: Pick<EndpointBinding, 'allowedOrigins'>, origin: string | undefined): Record<string, string> {
  if (binding.allowedOrigins.length === 0) return {};
  return listed(binding, origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : { vary: 'Origin' };
}

export type PreflightAnswer = { ok: true; headers: Record<string, string> } | { ok: false };

export function preflightAnswer(binding: Pick<EndpointBinding, 'allowedOrigins' | 'methods'>, origin: string | undefined): PreflightAnswer {
  if (!listed(binding, origin)) return { ok: false };
  return {
    ok: true,
    headers: {
      ...corsHeaders(binding, origin),
      'access-control-allow-methods': answeredMethods(binding).join(', '),
      'access-control-allow-headers': PREFLIGHT_ALLOWED_HEADERS,
      'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
    },
  };
}
