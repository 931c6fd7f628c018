/**
 * One request at `/endpoints/{name}/{rest...}` (spec document 3, "Scripted endpoints"), from the
 * binding read to the answer. The binding and its script's current version are read on every
 * request (target.ts: coalesced, each request answered by a query started after it arrived), so a
 * save or a binding change is seen by the next request on any replica. While that read is in
 * flight, a replica that holds the endpoint's target from an earlier read serves the request on
 * it and keeps the answer until the read confirms the target unchanged; otherwise the answer is
 * dropped and the request served from what the read answered (Tentative, below).
 *
 * Order of the checks (each stops the request):
 *   1. an enabled endpoint of that name, and the path matches its template — else 404 (one answer
 *      for unknown, disabled and mismatched; an unknown name alone writes no audit row);
 *   2. a CORS preflight is answered here (listed origin 204, any other 403);
 *   3. the method is answered — else 405 with Allow;
 *   4. the script is active — else 503;
 *   5. signed_in: a signed-in caller (401), a session's write with its CSRF token (403), a session
 *      only from the platform's own origin (403), then caller_rate_limit and rate_limit (429);
 *   6. public: the bot check in X-Bot-Check unless open_reads covers GET/HEAD (403; 503 when it
 *      could not be made) — checked before the body is read, so an anonymous caller cannot make
 *      the replica buffer bodies, but not yet spent (from a network past its refusals, step 9 is
 *      made here, before the body); an open read: rate_limit (429), leaving half of it to checked
 *      requests when the endpoint answers any;
 *   7. the body within max_body_bytes (413, never buffered past it), and JSON when it claims to be (400);
 *   8. a free handler slot of this replica — else 503 with Retry-After;
 *   9. public: rate_limit (429), then the checked answer spent (recorded as used; a hosted token
 *      verified at its provider) — last before the run, so an answer is used up only by a request
 *      that runs; refused, it gives its rate_limit token back;
 *  10. handle(req) as principal script:<name> with its author's roles, within timeout_seconds (504)
 *      and max_memory_bytes (503); a failure or a non-response is 500.
 *
 * rate_limit and caller_rate_limit count only requests that authenticated or passed the bot check,
 * so callers who never pass cannot lock out those who do. A refusal by authentication or the bot
 * check (steps 5, 6 and 9) is counted instead in the bucket of its client network (limits.ts),
 * and past it answered 429: a flood of refusals is bounded where it comes from.
 */
import { randomUUID } from 'node:crypto';
import type { BotCheck, BotCheckVerdict } from '../botcheck/index.js';
import type { Db } from '../db/index.js';
import type { CallerContext } from '../identity/index.js';
import type { Logger } from '../logging/index.js';
import { runs, scriptPrincipal, type ScriptCaller, type ScriptRunner } from '../scripts/index.js';
import { BodyRefusal } from '../inbound/index.js';
import { bodyRefused, refusal, type EndpointAnswer, type RefusalCode } from './answers.js';
import { answeredMethods, corsHeaders, isPreflight, preflightAnswer } from './cors.js';
import { EndpointRateLimits, HandlerSlots } from './limits.js';
import { statusClass, type EndpointMetrics } from './metrics.js';
import type { EndpointRecords } from './records.js';
import { handlerRequest, type HandlerRequest } from './request.js';
import { handlerAnswer, protectiveHeaders } from './response.js';
import { EndpointTargetReader } from './target.js';
import { matchTemplate } from './template.js';
import { ENDPOINT_NAME, type EndpointBinding, type EndpointTarget } from './types.js';

type Headers = Record<string, string | string[] | undefined>;

/** The bot check as the request pipeline calls it: `check` without using the answer up, then its `spend` (shared/botcheck). */
export type BotCheckGate = Pick<BotCheck, 'check'>;

type BotCheckRefusal = Exclude<BotCheckVerdict, { ok: true }>;

/** A request's authentication (api/http/rest-auth.ts: header credentials, else the browser session with its CSRF rule). */
export type EndpointAuthentication =
  | { ok: true; caller: CallerContext; viaSession: boolean }
  | { ok: false; status: 401 | 403; error: 'unauthorized' | 'csrf_required' | 'csrf_invalid' };

export type EndpointAuthenticator = (request: { method: string; headers: Headers }) => Promise<EndpointAuthentication>;

/** What the route hands in: the request as it arrived, its body still unread. */
export interface EndpointRequest {
  /** The endpoint name (the first segment under /endpoints/). */
  name: string;
  /** The raw path under the name: '' or starting with '/'. */
  rest: string;
  /** Upper-case. */
  method: string;
  /** The request path as sent, without the query. */
  path: string;
  rawQuery: string;
  headers: Headers;
  rawHeaders: readonly string[];
  /** The platform's own origin (a browser session is accepted from it only). */
  ownOrigin: string | undefined;
  remoteIp?: string;
  /**
   * The body, or undefined as soon as it passes `limit` bytes (the rest is left unread).
   * `authenticated`: the caller signed in, so its body is not held against the replica's budget of
   * unauthenticated bytes (a bot-check answer proves work, not who sent it).
   */
  readBody(limit: number, authenticated: boolean): Promise<Uint8Array | undefined>;
}

export interface EndpointRequestsDeps {
  db: Db;
  runner: Pick<ScriptRunner, 'execute'>;
  authenticate: EndpointAuthenticator;
  /** Absent: public endpoints' checked requests answer 503 (the check cannot be made). */
  botCheck?: BotCheckGate;
  records: EndpointRecords;
  metrics: EndpointMetrics;
  log: Logger;
  limits?: EndpointRateLimits;
  slots?: HandlerSlots;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/**
 * A request served from the target the replica holds while the request's own freshness read is in
 * flight (answer()). Nothing it does may outlive a discard: the rate-limit tokens it took are given
 * back, its run's platform calls and imports wait for the decision (ExecuteSpec.confirmed), and at
 * anything else with an effect — a refusal counted against a network, a 429 counted in metrics,
 * the bot check, a body to read — it stops (NotServedTentatively) and the request is served as
 * usual once the read is in.
 */
class Tentative {
  readonly decided: Promise<boolean>;
  #decide!: (confirmed: boolean) => void;
  readonly #givebacks: (() => void)[] = [];
  #discarded = false;

  constructor() {
    this.decided = new Promise((resolve) => (this.#decide = resolve));
  }

  /** A token the try took, given back on a discard — at once, the try stopped, when the discard came first (the read beat its checks). */
  took(giveBack: () => void): void {
    if (this.#discarded) giveBack();
    else this.#givebacks.push(giveBack);
    this.stillWanted();
  }

  /** Stops a try whose answer was already dropped before it starts its run. */
  stillWanted(): void {
    if (this.#discarded) throw new NotServedTentatively();
  }

  /** The read answered the same target: the answer stands (the first decision holds). */
  confirm(): void {
    this.#decide(true);
  }

  /** The answer will not be used: what it took goes back, its run reaches nothing more. */
  discard(): void {
    this.#discarded = true;
    for (const giveBack of this.#givebacks.splice(0)) giveBack();
    this.#decide(false);
  }
}

/** Thrown where a tentative request would do something a discard could not undo. */
class NotServedTentatively extends Error {}

/** Only a request without a body is served tentatively: a body is read once, by the request that uses it. */
function servableTentatively(request: EndpointRequest): boolean {
  return request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined;
}

/** One request served from one target: its answer and what its records need. */
interface Served {
  target: EndpointTarget;
  facts: TargetFacts;
  progress: Progress;
  sessionId: string;
  answer: EndpointAnswer;
}

/** What one request came to, for its records. */
interface Progress {
  /** Served beside its read: see Tentative. */
  tentative?: Tentative;
  caller: CallerContext | null;
  /** The handler ran (metrics count it). */
  ran: boolean;
  /** The platform answered 500, 503 or 504: kept as a failed request. */
  failed: boolean;
  error?: string;
}

/** What every request to one target works out the same way: worked out once per target (a target is replaced when its rows change). */
interface TargetFacts {
  /** The methods answered (HEAD with GET), and as an Allow header. */
  methods: string[];
  allow: string;
  /** The endpoint also answers methods that need the bot check (open reads leave them half of rate_limit). */
  checkedMethods: boolean;
  /** script:<name> with its version's author's roles; frozen, so the runner may keep its authority key. */
  principal: ScriptCaller;
  /** The script as records name it. */
  script: { id: string; name: string; version: number };
  /** The library versions its runs import: the version's pins. */
  imports: { scriptId: string; version: number };
}

function factsOf(target: EndpointTarget): TargetFacts {
  const { binding, script } = target;
  const methods = answeredMethods(binding);
  const principal = scriptPrincipal({ id: script.id, name: script.name }, script.authorRoles);
  Object.freeze(principal.roles);
  Object.freeze(principal.script);
  return {
    methods,
    allow: methods.join(', '),
    checkedMethods: binding.methods.some((m) => m !== 'GET'),
    principal: Object.freeze(principal),
    script: { id: script.id, name: script.name, version: script.version },
    imports: { scriptId: script.id, version: script.version },
  };
}

/** The body of a request without one (zero bytes: nothing in it to change). */
const noBody = new Uint8Array(0);

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The answer's headers with the CORS ones; a Vary the handler set keeps its names beside Origin. */
function withCors(headers: Record<string, string>, cors: Record<string, string>): Record<string, string> {
  // No CORS of the endpoint's and no Vary of the handler's (most answers): nothing to merge.
  if (headers.vary === undefined && cors.vary === undefined && cors['access-control-allow-origin'] === undefined) return headers;
  const names = new Map<string, string>();
  for (const name of [headers.vary, cors.vary].flatMap((v) => (v === undefined ? [] : v.split(',')))) {
    const trimmed = name.trim();
    if (trimmed) names.set(trimmed.toLowerCase(), trimmed);
  }
  return { ...headers, ...cors, ...(names.size > 0 ? { vary: [...names.values()].join(', ') } : {}) };
}

/** An answer given before any endpoint was found: the protective headers only. */
function bare(answer: EndpointAnswer): EndpointAnswer {
  return { ...answer, headers: protectiveHeaders(answer.headers) };
}

export class EndpointRequests {
  readonly #deps: EndpointRequestsDeps;
  readonly #limits: EndpointRateLimits;
  readonly #slots: HandlerSlots;
  readonly #clock: () => number;
  readonly #targets: EndpointTargetReader;
  readonly #facts = new WeakMap<EndpointTarget, TargetFacts>();

  constructor(deps: EndpointRequestsDeps) {
    this.#deps = deps;
    this.#targets = new EndpointTargetReader(deps.db);
    this.#limits = deps.limits ?? new EndpointRateLimits();
    this.#slots = deps.slots ?? new HandlerSlots();
    this.#clock = deps.clock ?? Date.now;
  }

  async answer(request: EndpointRequest): Promise<EndpointAnswer> {
    const startedAt = this.#clock();
    const started = performance.now();
    if (!ENDPOINT_NAME.test(request.name)) return bare(refusal('not_found'));
    // The read starts after the request arrived (target.ts). Meanwhile a target this replica holds
    // serves it, the answer kept until the read says whether that target is still the endpoint's.
    const reading = this.#targets.read(request.name);
    const held = this.#targets.held(request.name);
    let served = held && servableTentatively(request) ? await this.#serveBesideRead(request, held, reading) : undefined;
    if (!served) {
      let target: EndpointTarget | undefined;
      try {
        target = await reading;
      } catch (error) {
        // The database is away: no endpoint can be told apart, none answers.
        this.#deps.log.error({ err: { message: (error as Error).message } }, 'endpoint binding not read');
        return bare(refusal('unavailable', { 'retry-after': '5' }));
      }
      if (!target) return bare(refusal('not_found'));
      served = await this.#attempt(request, target);
    }
    const { target, facts, progress, sessionId, answer } = served;
    const { binding } = target;
    const durationMs = performance.now() - started;
    this.#deps.records.request(
      {
        endpoint: binding.endpoint,
        script: facts.script,
        method: request.method,
        status: answer.status,
        authMode: binding.authMode,
        caller: progress.caller,
        sessionId,
        startedAt,
        durationMs,
        outcome: progress.failed ? 'error' : progress.ran || answer.status < 400 ? 'ok' : 'denied',
        ...(progress.error !== undefined ? { error: progress.error } : {}),
      },
      progress.failed,
    );
    if (progress.ran) {
      this.#deps.metrics.requests.inc({ endpoint: binding.endpoint, status_class: statusClass(answer.status) });
      this.#deps.metrics.duration.observe({ endpoint: binding.endpoint }, durationMs / 1000);
    }
    // A disabled endpoint answers like an unknown one: no CORS of its own. (Every answer here is a fresh object.)
    answer.headers = protectiveHeaders(binding.enabled ? withCors(answer.headers, corsHeaders(binding, header(request.headers, 'origin'))) : answer.headers);
    return answer;
  }

  /**
   * Serves `request` from `held` while `reading` is in flight: the answer when the read confirms
   * `held` (the same object: its rows unchanged), else undefined — the read failed, answered
   * another target, or the request met something a discard could not undo — and the request is
   * served again from what the read answered. A discarded run is not waited for.
   */
  async #serveBesideRead(request: EndpointRequest, held: EndpointTarget, reading: Promise<EndpointTarget | undefined>): Promise<Served | undefined> {
    const tentative = new Tentative();
    reading.then(
      (target) => (target === held ? tentative.confirm() : tentative.discard()),
      () => tentative.discard(),
    );
    const attempt = this.#attempt(request, held, tentative);
    // Settled by whoever uses it; a discarded attempt's end (or NotServedTentatively) is nobody's concern.
    attempt.catch(() => undefined);
    if (!(await tentative.decided)) return undefined;
    try {
      return await attempt;
    } catch (error) {
      if (error instanceof NotServedTentatively) return undefined;
      throw error;
    }
  }

  /** Serves `request` from `target` (tentatively when given, see Tentative); an unexpected failure answers 500. */
  async #attempt(request: EndpointRequest, target: EndpointTarget, tentative?: Tentative): Promise<Served> {
    let facts = this.#facts.get(target);
    if (!facts) this.#facts.set(target, (facts = factsOf(target)));
    const progress: Progress = { caller: null, ran: false, failed: false, ...(tentative ? { tentative } : {}) };
    // Node's randomUUID draws from a cached pool (a v7 id drew fresh random bytes per request).
    const sessionId = `endpoint:${target.binding.endpoint}:${randomUUID()}`;
    let answer: EndpointAnswer;
    try {
      answer = await this.#serve(request, target, facts, sessionId, progress);
    } catch (error) {
      if (error instanceof NotServedTentatively) {
        tentative?.discard();
        throw error;
      }
      if (tentative && !(await tentative.decided)) throw new NotServedTentatively();
      this.#deps.log.error({ err: { message: (error as Error).message }, endpoint: target.binding.endpoint }, 'endpoint request failed');
      answer = this.#failure(progress, 'handler_failed', (error as Error).message);
    }
    return { target, facts, progress, sessionId, answer };
  }

  async #serve(request: EndpointRequest, target: EndpointTarget, facts: TargetFacts, sessionId: string, progress: Progress): Promise<EndpointAnswer> {
    const { binding, script } = target;
    const { method, headers } = request;
    // Recorded (the endpoint is known), answered as an unknown name is.
    if (!binding.enabled) return refusal('not_found');
    const params = matchTemplate(binding.path, request.rest);
    if (!params) return refusal('not_found');
    const origin = header(headers, 'origin');
    if (isPreflight(method, headers)) {
      const preflight = preflightAnswer(binding, origin);
      return preflight.ok ? { status: 204, headers: preflight.headers, body: Buffer.alloc(0) } : refusal('origin_not_allowed');
    }
    if (!facts.methods.includes(method)) return refusal('method_not_allowed', { allow: facts.allow });
    if (!runs(script.state)) return this.#failure(progress, 'unavailable', `the script "${script.name}" is ${script.state}: only active scripts answer`);
    const presented = header(headers, 'x-bot-check');

    let caller: CallerContext | null = null;
    let spend: (() => Promise<BotCheckVerdict>) | undefined;
    if (binding.authMode === 'signed_in') {
      const auth = await this.#deps.authenticate({ method, headers });
      if (!auth.ok) return this.#refused(binding, request, progress, refusal(auth.error, auth.status === 401 ? { 'www-authenticate': 'Bearer' } : {}));
      if (auth.caller.authType === 'anonymous') return this.#refused(binding, request, progress, refusal('unauthorized', { 'www-authenticate': 'Bearer' }));
      if (auth.viaSession && origin !== undefined && origin !== request.ownOrigin) return this.#refused(binding, request, progress, refusal('cross_origin_session'));
      caller = progress.caller = auth.caller;
      // The caller's own limit first: a caller past it spends nothing of the endpoint's.
      const callerRate = this.#limits.caller(binding.endpoint, caller.subject, binding.callerRateLimit, this.#clock());
      if (!callerRate.ok) return this.#rateLimited(progress, callerRate.retryAfterSeconds);
      const subject = caller.subject;
      progress.tentative?.took(() => this.#limits.giveBackCaller(binding.endpoint, subject));
      const limited = this.#pastRateLimit(binding, progress);
      if (limited) return limited;
    } else if (binding.openReads && (method === 'GET' || method === 'HEAD')) {
      // Open reads prove nothing: where the endpoint also answers checked methods, they leave half
      // of rate_limit to requests that pass the bot check, so a flood of reads cannot lock those out.
      const limited = this.#pastRateLimit(binding, progress, facts.checkedMethods ? Math.floor(binding.rateLimit / 2) : 0);
      if (limited) return limited;
    } else {
      // Checking an answer is the start of spending it: not for a request that may be discarded.
      if (progress.tentative) throw new NotServedTentatively();
      const check = this.#deps.botCheck
        ? await this.#deps.botCheck.check({ endpoint: binding.endpoint, header: presented, ...(request.remoteIp ? { remoteIp: request.remoteIp } : {}) })
        : ({ ok: false, status: 503, reason: 'no bot check is configured on this replica' } as const);
      if (!check.ok) return this.#botCheckRefused(binding, request, presented, progress, check);
      // A network past its refusals spends its answer before its body is read: its replays and
      // refused hosted tokens cost it neither a body nor a handler slot.
      if (!this.#limits.pastRefusals(binding.endpoint, request.remoteIp, binding.rateLimit, this.#clock())) spend = check.spend;
      else {
        const notSpent = await this.#spendAnswer(binding, request, presented, progress, check.spend);
        if (notSpent) return notSpent;
      }
    }

    const length = header(headers, 'content-length');
    const declared = Number(length);
    let body: Uint8Array | undefined;
    try {
      // Neither header: no body (HTTP/1.1's rule), and no wait for one (most GETs).
      if (length === undefined && headers['transfer-encoding'] === undefined) body = noBody;
      else body = Number.isFinite(declared) && declared > binding.maxBodyBytes ? undefined : await request.readBody(binding.maxBodyBytes, caller !== null);
    } catch (error) {
      if (error instanceof BodyRefusal) return bodyRefused(error);
      throw error;
    }
    if (!body) return { ...refusal('payload_too_large'), close: true };
    const built = handlerRequest({ method, path: request.path, params, rawQuery: request.rawQuery, rawHeaders: request.rawHeaders, body, caller });
    if (!built.ok) return refusal('invalid_json');

    if (!this.#slots.take()) return this.#failure(progress, 'busy', `all ${this.#slots.max} handlers of this replica are running`, { 'retry-after': '1' });
    try {
      if (spend) {
        // Spent only now: a request refused for its body or a slot leaves its answer and the budget alone.
        const notSpent = await this.#spendAnswer(binding, request, presented, progress, spend);
        if (notSpent) return notSpent;
      }
      return await this.#run(target, facts, built.req, sessionId, progress);
    } finally {
      this.#slots.release();
    }
  }

  /** A refusal by authentication or the bot check, counted against its client network (past its bucket: 429). */
  #refused(binding: EndpointBinding, request: EndpointRequest, progress: Progress, answer: EndpointAnswer): EndpointAnswer {
    if (progress.tentative) throw new NotServedTentatively();
    const network = this.#limits.refusal(binding.endpoint, request.remoteIp, binding.rateLimit, this.#clock());
    return network.ok ? answer : this.#rateLimited(progress, network.retryAfterSeconds);
  }

  /** 403 for a missing or refused answer; 503 (a failed request, not the caller's refusal) when the check could not be made. */
  #botCheckRefused(binding: EndpointBinding, request: EndpointRequest, presented: string | undefined, progress: Progress, verdict: BotCheckRefusal): EndpointAnswer {
    return verdict.status === 503
      ? this.#failure(progress, 'bot_check_unavailable', `bot check: ${verdict.reason}`, { 'retry-after': '5' })
      : this.#refused(binding, request, progress, refusal(presented === undefined ? 'bot_check_required' : 'bot_check_refused'));
  }

  /**
   * A public request is admitted as its answer is spent: past rate_limit the answer is kept for a
   * retry; a refused spend gives the rate_limit token back. Undefined when spent.
   */
  async #spendAnswer(binding: EndpointBinding, request: EndpointRequest, presented: string | undefined, progress: Progress, spend: () => Promise<BotCheckVerdict>): Promise<EndpointAnswer | undefined> {
    const limited = this.#pastRateLimit(binding, progress);
    if (limited) return limited;
    const spent = await spend();
    if (spent.ok) return undefined;
    this.#limits.giveBack(binding.endpoint);
    return this.#botCheckRefused(binding, request, presented, progress, spent);
  }

  async #run(target: EndpointTarget, facts: TargetFacts, req: HandlerRequest, sessionId: string, progress: Progress): Promise<EndpointAnswer> {
    const { binding, script } = target;
    progress.tentative?.stillWanted();
    progress.ran = true;
    const outcome = await this.#deps.runner.execute({
      source: script.source,
      principal: facts.principal,
      entry: 'handle',
      args: [req],
      sessionId,
      imports: facts.imports,
      // A signed-in caller's handlers count against its run slots; anonymous callers are told apart by no one.
      countsAgainst: progress.caller?.subject,
      memoryBytes: binding.maxMemoryBytes,
      deadlineMs: binding.timeoutSeconds * 1000,
      ...(progress.tentative ? { confirmed: progress.tentative.decided } : {}),
    });
    switch (outcome.status) {
      case 'ok': {
        const answered = handlerAnswer(outcome.result);
        if (!answered.ok) return this.#failure(progress, 'handler_failed', `the handler returned a non-response: ${answered.reason}`);
        return answered.answer;
      }
      case 'timeout':
        return this.#failure(progress, 'timeout', outcome.error);
      case 'memory':
        return this.#failure(progress, 'unavailable', outcome.error);
      case 'busy':
        // The sandbox had no run slot (or the caller had none left): the handler never started.
        progress.ran = false;
        return this.#failure(progress, 'busy', outcome.error, { 'retry-after': '1' });
      case 'error':
        return this.#failure(progress, 'handler_failed', outcome.error);
    }
  }

  #failure(progress: Progress, code: RefusalCode, error: string, headers: Record<string, string> = {}): EndpointAnswer {
    progress.failed = true;
    progress.error = error;
    return refusal(code, headers);
  }

  /** 429 when the endpoint's rate_limit has no token for this admitted request (beyond `keep`); else undefined, its token taken. */
  #pastRateLimit(binding: EndpointBinding, progress: Progress, keep = 0): EndpointAnswer | undefined {
    const decision = this.#limits.endpoint(binding.endpoint, binding.rateLimit, this.#clock(), keep);
    if (!decision.ok) return this.#rateLimited(progress, decision.retryAfterSeconds);
    progress.tentative?.took(() => this.#limits.giveBack(binding.endpoint));
    return undefined;
  }

  #rateLimited(progress: Progress, retryAfterSeconds: number): EndpointAnswer {
    if (progress.tentative) throw new NotServedTentatively();
    this.#deps.metrics.rateLimited.inc({ limiter: 'endpoint' });
    return refusal('rate_limited', { 'retry-after': String(retryAfterSeconds) });
  }
}
