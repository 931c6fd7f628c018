/**
 * Server-side verification of a hosted challenge service's token: `hosted_a` is Cloudflare
 * Turnstile, `hosted_b` hCaptcha. Both take a form POST of `secret`, `response` (the token) and
 * optionally `remoteip` at their siteverify URL (hCaptcha also `sitekey`, which refuses a token
 * minted for another site) and answer JSON `{success, "error-codes": [...], ...}`. The URLs are
 * platform config (`bot_check.hosted_a_verify_url`, `hosted_b_verify_url`), so tests run a local
 * stand-in.
 *
 * Anything but a 200 with a JSON `success` boolean — no answer, a timeout, a redirect, a 5xx, an
 * HTML page — is SiteverifyUnavailable: the check could not be made, never a pass. The secret goes
 * only into the POST body; no error or log line carries it or the token.
 */
import type { HostedProvider } from './settings.js';

/** How long a hosted token is kept as used: Turnstile's tokens live 300 s (hCaptcha's less). */
export const HOSTED_TOKEN_LIFETIME_SECONDS = 300;
const MAX_ERROR_CODES = 5;

export interface SiteverifyTarget {
  url: string;
  timeoutMs: number;
}

export type SiteverifyResult = { ok: true } | { ok: false; errorCodes: string[] };

/** The provider could not be asked, or did not answer as documented. */
export class SiteverifyUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SiteverifyUnavailable';
  }
}

/** The provider's error codes, only as the short identifiers they are documented to be. */
function errorCodesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((code): code is string => typeof code === 'string' && /^[a-z0-9-]{1,64}$/.test(code)).slice(0, MAX_ERROR_CODES);
}

export async function siteverify(
  provider: HostedProvider,
  target: SiteverifyTarget,
  request: { secret: string; token: string; remoteIp?: string | undefined; siteKey?: string | null | undefined },
): Promise<SiteverifyResult> {
  const form = new URLSearchParams({ secret: request.secret, response: request.token });
  if (request.remoteIp) form.set('remoteip', request.remoteIp);
  if (provider === 'hosted_b' && request.siteKey) form.set('sitekey', request.siteKey);
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: 'POST',
      body: form,
      headers: { accept: 'application/json' },
      // The body holds the secret: never replay it to wherever a redirect points.
      redirect: 'error',
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new SiteverifyUnavailable(`${provider} siteverify could not be reached: ${cause}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new SiteverifyUnavailable(`${provider} siteverify answered HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new SiteverifyUnavailable(`${provider} siteverify did not answer JSON`);
  }
  const success = (body as { success?: unknown } | null)?.success;
  if (typeof success !== 'boolean') throw new SiteverifyUnavailable(`${provider} siteverify answered without a success field`);
  return success ? { ok: true } : { ok: false, errorCodes: errorCodesOf((body as Record<string, unknown>)['error-codes']) };
}
