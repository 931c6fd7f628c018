/**
 * The bot check of public endpoints (spec document 3, "Bot-check answer"): the one entry point
 * the endpoint request pipeline calls (`verify`), and the challenges `GET /botcheck/challenge`
 * issues (`challenge`).
 *
 *   none ──challenge(endpoint)──▶ issued (signed, bound to the endpoint, valid challenge_ttl_seconds;
 *                                  counted in the endpoint's challenge bucket of the caller's network
 *                                  on this replica)
 *   issued ──verify, valid, unexpired, right endpoint, unused──▶ used (a row in Postgres)
 *   issued or used ──verify, altered, expired, other endpoint or already used──▶ refused (403)
 *
 * `verify` is `check` then `spend`: the request pipeline checks an answer as soon as the request's
 * headers are in (a missing, altered, expired or misdirected answer is refused before the body is
 * read, so an anonymous caller cannot make the replica buffer bodies), and spends it — records it
 * as used; a hosted token is verified at the provider then — only once the request is about to
 * run, so an answer is not used up by a request refused for its body or for want of a handler slot.
 *
 * The settings section `bot_check` is read on every call, so a change applies on every replica's
 * next request. Anything that keeps the check from being made — no signing key, the database or
 * the hosted provider unreachable, the provider's secret missing or not allowed — is 503, never a
 * pass; its detail goes to the log, not to the caller.
 */
import type { Logger } from '../logging/index.js';
import type { SecretStore } from '../secrets/index.js';
import type { PlatformSettings } from '../settings/index.js';
import { KeyedTokenBuckets } from '../webhooks/index.js';
import { clientNetwork } from './client-network.js';
import { challengeDifficulty } from './difficulty.js';
import { HOSTED_TOKEN_LIFETIME_SECONDS, siteverify, type SiteverifyTarget } from './hosted.js';
import { BOT_CHECK_HEADER, checkAnswer, issueChallenge, MAX_ANSWER_LENGTH, powRefusalReasons } from './pow.js';
import { BOT_CHECK_CONNECTION, botCheckSettingsSection, isHosted, type BotCheckSettings, type HostedProvider } from './settings.js';
import type { UsedAnswers } from './used-answers.js';

/** What the bot check needs to know of a public endpoint (the binding's fields). */
export interface PublicEndpoint {
  /** The binding's rate_limit: requests a minute on each replica; each client network's challenges get a bucket of this size of their own. */
  rateLimit: number;
  /** The binding's allowed_origins: browser origins the challenge answers cross-origin, like the endpoint does. */
  allowedOrigins: readonly string[];
}

/** The endpoint bindings, as the bot check sees them (supplied by the endpoint bindings). */
export interface BotCheckEndpoints {
  /** The enabled endpoint of that name whose auth_mode is public; undefined for any other name. */
  publicEndpoint(name: string): Promise<PublicEndpoint | undefined>;
}

export type ChallengeBody =
  | { provider: 'pow'; header: string; challenge: string; difficulty: number; expires_at: string }
  | { provider: HostedProvider; header: string; site_key: string }
  | { provider: 'none'; header: string };

export type ChallengeOutcome =
  | { ok: true; body: ChallengeBody; allowedOrigins: readonly string[] }
  | { ok: false; status: 404 | 503; reason: string }
  | { ok: false; status: 429; reason: string; retryAfterSeconds: number };

export type BotCheckVerdict = { ok: true } | { ok: false; status: 403 | 503; reason: string };

/** An answer checked but not spent: `spend` records it as used (403 when it already was), at most once. */
export type BotCheckScreening = { ok: true; spend(): Promise<BotCheckVerdict> } | Exclude<BotCheckVerdict, { ok: true }>;

export interface BotCheckRequest {
  /** The public endpoint the request is for. */
  endpoint: string;
  /** The X-Bot-Check header's value, if the request has one. */
  header: string | undefined;
  /** The caller's address, passed to a hosted provider (its `remoteip`). */
  remoteIp?: string | undefined;
}

export interface BotCheckOptions {
  settings: PlatformSettings;
  answers: UsedAnswers;
  secrets: Pick<SecretStore, 'secretFor'>;
  endpoints: BotCheckEndpoints;
  /** The bot-check key (deriveKey of auth.browser_session.signing_key, purpose bot-check); absent: no proof-of-work challenge can be issued. */
  powKey?: Uint8Array | undefined;
  /** Where each hosted provider's tokens are verified. */
  siteverify: Record<HostedProvider, SiteverifyTarget>;
  log: Pick<Logger, 'warn'>;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

const cannotCheck = 'bot check could not be made';
const minuteMs = 60_000;

/** Challenge buckets one replica keeps (one per public endpoint and client network asking); about 200 bytes each. */
const MAX_CHALLENGE_BUCKETS = 50_000;

export class BotCheck {
  readonly #opts: BotCheckOptions;
  readonly #clock: () => number;
  /**
   * Per endpoint and client network, this replica's bucket of challenge requests (only public
   * endpoints get one): a flood of challenge requests from one network leaves every other
   * network's challenges — and every solved answer, which no challenge bucket counts — alone.
   */
  readonly #challenges = new KeyedTokenBuckets(MAX_CHALLENGE_BUCKETS);

  constructor(opts: BotCheckOptions) {
    this.#opts = opts;
    this.#clock = opts.clock ?? Date.now;
  }

  /**
   * A challenge for a public endpoint, asked for from `client` (the caller's address): 404 for any
   * other name, 429 past the bucket of the endpoint and the client's network, 503 when none can be issued.
   */
  async challenge(endpointName: string, client?: string): Promise<ChallengeOutcome> {
    const nowMs = this.#clock();
    let endpoint: PublicEndpoint | undefined;
    let settings: BotCheckSettings;
    try {
      endpoint = await this.#opts.endpoints.publicEndpoint(endpointName);
      if (!endpoint) return { ok: false, status: 404, reason: `no public endpoint named ${endpointName}` };
      // The endpoint's own request bucket's size: a minute's worth at once, refilled evenly over the minute.
      const taken = this.#challenges.take(`${endpointName}\0${clientNetwork(client)}`, { perMinute: endpoint.rateLimit, burst: endpoint.rateLimit }, nowMs);
      if (!taken.ok) return { ok: false, status: 429, reason: `past the challenge rate of endpoint ${endpointName} for this network`, retryAfterSeconds: taken.retryAfterSeconds };
      settings = await this.#opts.settings.read(botCheckSettingsSection);
      const header = BOT_CHECK_HEADER;
      if (isHosted(settings.provider)) return { ok: true, body: { provider: settings.provider, header, site_key: settings.site_key! }, allowedOrigins: endpoint.allowedOrigins };
      if (settings.provider === 'none') return { ok: true, body: { provider: 'none', header }, allowedOrigins: endpoint.allowedOrigins };
      if (!this.#opts.powKey) return { ok: false, status: 503, reason: 'cannot issue challenges: auth.browser_session.signing_key is not configured' };
      // Counting more than the ceiling needs changes nothing, so the count stops there.
      const atMost = settings.rate_threshold * 2 ** (settings.max_difficulty - settings.difficulty);
      const recent = await this.#opts.answers.acceptedSince(endpointName, new Date(nowMs - minuteMs), atMost);
      const difficulty = challengeDifficulty(settings, recent);
      const { challenge, expiresAtMs } = issueChallenge(this.#opts.powKey, { endpoint: endpointName, difficulty, ttlSeconds: settings.challenge_ttl_seconds, nowMs });
      return { ok: true, body: { provider: 'pow', header, challenge, difficulty, expires_at: new Date(expiresAtMs).toISOString() }, allowedOrigins: endpoint.allowedOrigins };
    } catch (error) {
      this.#opts.log.warn({ err: error, endpoint: endpointName }, 'bot-check challenge could not be issued');
      return { ok: false, status: 503, reason: 'cannot issue a challenge now' };
    }
  }

  /** Whether a request to a public endpoint passes the bot check: ok, 403 (missing or refused), or 503 (could not be made). */
  async verify(request: BotCheckRequest): Promise<BotCheckVerdict> {
    const checked = await this.check(request);
    return checked.ok ? checked.spend() : checked;
  }

  /**
   * Everything of the bot check but recording the answer as used: the settings, the header, and a
   * proof-of-work answer's signature, endpoint, expiry and work (a hosted token is only looked at
   * here: its provider is asked when it is spent).
   */
  async check(request: BotCheckRequest): Promise<BotCheckScreening> {
    let settings: BotCheckSettings;
    try {
      settings = await this.#opts.settings.read(botCheckSettingsSection);
    } catch (error) {
      return this.#unavailable(error, request.endpoint, 'bot-check settings could not be read');
    }
    if (settings.provider === 'none') {
      if (settings.allow_public_without_check) return { ok: true, spend: async () => ({ ok: true }) };
      this.#opts.log.warn({ endpoint: request.endpoint }, 'bot-check provider is none and allow_public_without_check is off: public endpoints are refused');
      return { ok: false, status: 503, reason: cannotCheck };
    }
    const answer = request.header?.trim();
    if (!answer) return { ok: false, status: 403, reason: `bot check missing: send the ${BOT_CHECK_HEADER} header` };
    if (answer.length > MAX_ANSWER_LENGTH) return { ok: false, status: 403, reason: 'bot-check answer too long' };
    if (isHosted(settings.provider)) {
      const provider = settings.provider;
      return { ok: true, spend: once(() => this.#verifyHosted(provider, settings, answer, request)) };
    }
    return this.#checkPow(answer, request);
  }

  #checkPow(answer: string, request: BotCheckRequest): BotCheckScreening {
    if (!this.#opts.powKey) return this.#unavailable(undefined, request.endpoint, 'proof-of-work answers cannot be checked: auth.browser_session.signing_key is not configured');
    const nowMs = this.#clock();
    const checked = checkAnswer(this.#opts.powKey, answer, { endpoint: request.endpoint, nowMs });
    if (!checked.ok) return { ok: false, status: 403, reason: powRefusalReasons[checked.refusal] };
    return {
      ok: true,
      spend: once(async () => {
        // Expired while the body came in: refused as it would be now (a row purged after its
        // expiry must never meet a late spend of the same answer).
        const spentAtMs = this.#clock();
        if (spentAtMs >= checked.expiresAtMs) return { ok: false, status: 403, reason: powRefusalReasons.expired };
        return this.#recordUse({ kind: 'pow', text: checked.challenge, endpoint: request.endpoint, acceptedAt: new Date(spentAtMs), expiresAt: new Date(checked.expiresAtMs) });
      }),
    };
  }

  async #verifyHosted(provider: HostedProvider, settings: BotCheckSettings, token: string, request: BotCheckRequest): Promise<BotCheckVerdict> {
    let result;
    try {
      const secret = await this.#opts.secrets.secretFor(settings.secret_name!, BOT_CHECK_CONNECTION);
      result = await siteverify(provider, this.#opts.siteverify[provider], { secret, token, remoteIp: request.remoteIp, siteKey: settings.site_key });
    } catch (error) {
      // The secret missing or not allowed (SecretError), the provider unreachable (SiteverifyUnavailable), …
      return this.#unavailable(error, request.endpoint, `${provider} token could not be verified`);
    }
    if (!result.ok) return { ok: false, status: 403, reason: `the ${provider} token was refused${result.errorCodes.length ? ` (${result.errorCodes.join(', ')})` : ''}` };
    const nowMs = this.#clock();
    return this.#recordUse({ kind: provider, text: token, endpoint: request.endpoint, acceptedAt: new Date(nowMs), expiresAt: new Date(nowMs + HOSTED_TOKEN_LIFETIME_SECONDS * 1000) });
  }

  async #recordUse(answer: Parameters<UsedAnswers['record']>[0]): Promise<BotCheckVerdict> {
    try {
      if (await this.#opts.answers.record(answer)) return { ok: true };
    } catch (error) {
      return this.#unavailable(error, answer.endpoint, 'bot-check answer could not be recorded as used');
    }
    return { ok: false, status: 403, reason: 'the bot-check answer was already used' };
  }

  #unavailable(error: unknown, endpoint: string, message: string): { ok: false; status: 503; reason: string } {
    this.#opts.log.warn({ ...(error !== undefined ? { err: error } : {}), endpoint }, message);
    return { ok: false, status: 503, reason: cannotCheck };
  }
}

/** `spend` runs its work once: a second call answers what the first did. */
function once(spend: () => Promise<BotCheckVerdict>): () => Promise<BotCheckVerdict> {
  let spent: Promise<BotCheckVerdict> | undefined;
  return () => (spent ??= spend());
}
