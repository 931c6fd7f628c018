import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters, type JWK } from 'jose';
import type { Logger } from '../logging/index.js';

/** A verification key as jose's key-set resolver hands it out. */
export type VerificationKey = Awaited<ReturnType<ReturnType<typeof createLocalJWKSet>>>;

/** Candidate keys for a token header (usually exactly one), or why there are none. */
export type KeyLookup = { ok: true; keys: VerificationKey[] } | { ok: false; reason: string };

export interface IssuerKeysOptions {
  /** The configured issuer; discovery lives under it and must name it exactly. */
  issuer: string;
  fetch: typeof globalThis.fetch;
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** Minimum time between two fetches of the key set, whatever triggered them. */
  refetchIntervalMs: number;
  /** A key set older than this is refreshed on next use, so keys the issuer withdrew stop working. */
  maxAgeMs: number;
  fetchTimeoutMs: number;
  log?: Logger | undefined;
}

/** Only asymmetric keys can verify a token from a third party: a shared secret in a public JWKS would let anyone sign. */
const asymmetricKeyTypes = new Set(['RSA', 'EC', 'OKP']);

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

export class FetchFailure extends Error {}

/** What the platform reads from an issuer's discovery document. */
export interface IssuerMetadata {
  issuer: string;
  jwks_uri: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  end_session_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
}

const httpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//.test(value);

/** GET a JSON document with a timeout; a non-2xx answer is a FetchFailure. */
export async function fetchJson(fetch: typeof globalThis.fetch, url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new FetchFailure(`GET ${url}: HTTP ${response.status}`);
  return response.json();
}

/**
 * OpenID Connect discovery for `issuer`. The document must name exactly the issuer it was fetched
 * for (Discovery 1.0 §4.3) and its endpoints must be http(s) URLs; endpoints it omits stay absent.
 */
export async function fetchIssuerMetadata(issuer: string, fetch: typeof globalThis.fetch, timeoutMs: number): Promise<IssuerMetadata> {
  const metadata = await fetchJson(fetch, discoveryUrl(issuer), timeoutMs);
  if (typeof metadata !== 'object' || metadata === null) throw new FetchFailure('discovery document is not a JSON object');
  const doc = metadata as Record<string, unknown>;
  if (doc.issuer !== issuer) throw new FetchFailure(`discovery document names issuer ${JSON.stringify(doc.issuer)}`);
  if (!httpUrl(doc.jwks_uri)) throw new FetchFailure('discovery document has no http(s) jwks_uri');
  const result: IssuerMetadata = { issuer, jwks_uri: doc.jwks_uri };
  for (const name of ['authorization_endpoint', 'token_endpoint', 'end_session_endpoint'] as const) {
    const value = doc[name];
    if (value === undefined) continue;
    if (!httpUrl(value)) throw new FetchFailure(`discovery document has a malformed ${name}`);
    result[name] = value;
  }
  const methods = doc.token_endpoint_auth_methods_supported;
  if (Array.isArray(methods)) result.token_endpoint_auth_methods_supported = methods.filter((m): m is string => typeof m === 'string');
  return result;
}

/**
 * The issuer's signing keys: OIDC discovery (cached for the life of the process, dropped when the
 * key set cannot be fetched so a moved `jwks_uri` is picked up), then the JWKS, cached.
 *
 * Every fetch, whether the first, a refresh of a stale set or one caused by an unknown `kid`, is
 * at most one per `refetchIntervalMs`: a stream of tokens with made-up key ids cannot turn this
 * process into a load generator against the identity provider. Within that window an unknown key
 * is refused without a fetch. Concurrent callers share one fetch in flight. When a refresh fails
 * the previous set stays in use (an identity-provider hiccup must not lock everybody out); keys
 * are only ever trusted because the issuer published them.
 */
export class IssuerKeys {
  private jwksUri: string | undefined;
  private keySet: { resolve: ReturnType<typeof createLocalJWKSet>; fetchedAt: number } | undefined;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private inflight: Promise<void> | undefined;

  constructor(private readonly opts: IssuerKeysOptions) {}

  async keysFor(header: JWSHeaderParameters): Promise<KeyLookup> {
    const now = this.opts.clock();
    const stale = !this.keySet || now - this.keySet.fetchedAt >= this.opts.maxAgeMs;
    if (stale) await this.refreshIfAllowed(now);
    if (!this.keySet) return { ok: false, reason: 'identity provider signing keys unavailable' };

    const first = await this.select(header);
    if (first.ok || first.reason !== 'unknown signing key') return first;
    // An unknown key may have just been published (rotation): look once, unless we looked recently.
    if (!(await this.refreshIfAllowed(now))) return first;
    return this.select(header);
  }

  /**
   * Until when the key set in use counts as current (ms since the epoch): a verdict reached with
   * it must not be trusted longer, so that a key the issuer withdrew stops working on schedule.
   */
  currentUntil(): number {
    return this.keySet ? this.keySet.fetchedAt + this.opts.maxAgeMs : Number.NEGATIVE_INFINITY;
  }

  private async select(header: JWSHeaderParameters): Promise<KeyLookup> {
    try {
      return { ok: true, keys: [await this.keySet!.resolve(header)] };
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) return { ok: false, reason: 'unknown signing key' };
      if (error instanceof errors.JWKSMultipleMatchingKeys) {
        // No `kid` and several keys of the right type: every candidate is tried (jose's own rule).
        const keys: VerificationKey[] = [];
        for await (const key of error as unknown as AsyncIterable<VerificationKey>) keys.push(key);
        return keys.length > 0 ? { ok: true, keys } : { ok: false, reason: 'unknown signing key' };
      }
      return { ok: false, reason: 'signing key not usable' };
    }
  }

  /** Fetches unless a fetch happened within the interval; true when a fetch ran (successful or not). */
  private async refreshIfAllowed(now: number): Promise<boolean> {
    if (this.inflight) {
      await this.inflight;
      return true;
    }
    if (now - this.lastAttemptAt < this.opts.refetchIntervalMs) return false;
    this.lastAttemptAt = now;
    this.inflight = this.refresh(now).finally(() => {
      this.inflight = undefined;
    });
    await this.inflight;
    return true;
  }

  private async refresh(now: number): Promise<void> {
    try {
      this.jwksUri ??= (await fetchIssuerMetadata(this.opts.issuer, this.opts.fetch, this.opts.fetchTimeoutMs)).jwks_uri;
      const body = await fetchJson(this.opts.fetch, this.jwksUri, this.opts.fetchTimeoutMs);
      const keySet = publicSigningKeys(body);
      this.keySet = { resolve: createLocalJWKSet(keySet), fetchedAt: now };
      this.opts.log?.debug({ issuer: this.opts.issuer, keys: keySet.keys.length }, 'OIDC signing keys fetched');
    } catch (error) {
      this.jwksUri = undefined;
      this.opts.log?.warn({ issuer: this.opts.issuer, err: (error as Error).message }, 'OIDC signing keys could not be fetched');
    }
  }

}

/** The JWKS members that may verify signatures: asymmetric, public, not reserved for encryption. */
export function publicSigningKeys(body: unknown): JSONWebKeySet {
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new FetchFailure('JWKS has no keys array');
  const usable = keys.filter(
    (k): k is JWK =>
      typeof k === 'object' && k !== null &&
      asymmetricKeyTypes.has((k as JWK).kty ?? '') &&
      (k as JWK).d === undefined &&
      ((k as JWK).use === undefined || (k as JWK).use === 'sig'),
  );
  return { keys: usable };
}
