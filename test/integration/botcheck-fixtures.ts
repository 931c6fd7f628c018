/**
 * What the bot-check tests share: an api with the bot check composed as the platform composes it
 * (cli/botcheck.ts), on a real Postgres; the public endpoints it checks, given as the
 * `BotCheckEndpoints` the endpoint bindings will supply; a proof-of-work solver written apart from
 * the code under test; and a stand-in for a hosted provider's siteverify API.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import type { BotCheckEndpoints, PublicEndpoint } from '../../shared/botcheck/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger, type Logger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { endpointMetrics } from '../../shared/endpoints/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { startApi, type RunningApi } from '../../api/start.js';
import { createBotCheckServices, registerBotCheckRoutes, type BotCheckServices } from '../../cli/botcheck.js';

export const ADMIN_KEY = 'admin-key-0123456789';
export const ANALYST_KEY = 'analyst-key-0123456789';

/** The public endpoints, as the endpoint bindings would give them to the bot check. */
export class PublicEndpoints implements BotCheckEndpoints {
  readonly bindings = new Map<string, PublicEndpoint>();

  add(name: string, binding: Partial<PublicEndpoint> = {}): this {
    this.bindings.set(name, { rateLimit: 600, allowedOrigins: [], ...binding });
    return this;
  }

  async publicEndpoint(name: string): Promise<PublicEndpoint | undefined> {
    return this.bindings.get(name);
  }
}

/** Leading zero bits of a SHA-256, counted on its binary digits (independently of shared/botcheck). */
export function zeroBitsOf(text: string): number {
  const binary = [...createHash('sha256').update(text, 'utf8').digest()].map((byte) => byte.toString(2).padStart(8, '0')).join('');
  return binary.length - binary.replace(/^0+/, '').length;
}

/** The X-Bot-Check value answering `challenge` (the first counter from 0 that does it). */
export function solve(challenge: string, difficulty: number): string {
  for (let counter = 0; ; counter += 1) {
    const answer = `${challenge}:${counter}`;
    if (zeroBitsOf(answer) >= difficulty) return answer;
  }
}

/** A replica's config: one admin and one analyst key, a signing key (unless null), `extra` YAML at the top level. */
export function botCheckConfig(opts: { dataDir: string; signingKey?: string | null; extra?: string; encryptionKey?: string }): PlatformConfig {
  const signingKey = opts.signingKey === undefined ? randomBytes(32).toString('base64') : opts.signingKey;
  return parseConfig(
    `
data_dir: ${JSON.stringify(opts.dataDir)}
server:
  address: "127.0.0.1:0"
  transport: http
  allowed_origins: ["http://mcp-client.example"]
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
auth:
${signingKey ? `  browser_session:\n    signing_key: ${signingKey}\n` : ''}  api_keys:
    enabled: true
    keys:
      - { key: ${ADMIN_KEY}, name: root, roles: [admin] }
      - { key: ${ANALYST_KEY}, name: ann, roles: [analyst] }
personas:
  definitions:
    admin: { roles: [admin] }
    analyst: { roles: [analyst] }
admin:
  enabled: true
secrets:
  encryption_key: ${opts.encryptionKey ?? randomBytes(32).toString('base64')}
${opts.extra ?? ''}
`,
    {},
  ).config;
}

export interface BotCheckApi {
  api: RunningApi;
  services: BotCheckServices;
  /** This replica's metrics registry (http_rate_limited_total counts refused challenges). */
  metrics: Registry;
}

/** An api replica on `db` with the bot check composed by cli/botcheck.ts. */
export async function startBotCheckApi(opts: { config: PlatformConfig; db: Db; endpoints?: BotCheckEndpoints; clock?: () => number; log?: Logger }): Promise<BotCheckApi> {
  const log = opts.log ?? silentLogger();
  const services = await createBotCheckServices({
    config: opts.config,
    db: opts.db,
    log,
    ...(opts.endpoints ? { endpoints: opts.endpoints } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const metrics = createMetrics({ defaultMetrics: false });
  const { rateLimited } = endpointMetrics(metrics.registry);
  const api = await startApi({
    config: opts.config,
    log,
    metrics,
    surface: buildMcpSurface({ config: opts.config, log }),
    db: opts.db,
    routes: (app, ctx) => registerBotCheckRoutes(app, ctx, { config: opts.config, services, rateLimited, ...(opts.clock ? { now: opts.clock } : {}) }),
  });
  return { api, services, metrics: metrics.registry };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

/** A request with an optional bearer key and JSON body: status, headers, text and parsed JSON. */
export async function call(url: string, opts: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method: opts.method ?? 'GET', headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
  const text = await response.text();
  let json: Json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** One siteverify request as the stand-in received it. */
export interface SiteverifyCall {
  contentType: string | undefined;
  form: Record<string, string>;
}

/**
 * A stand-in for a hosted provider's siteverify API (Turnstile's and hCaptcha's documented
 * shape): a form POST of secret, response, remoteip (and sitekey); `answer` decides each reply.
 */
export class SiteverifyStandIn {
  readonly calls: SiteverifyCall[] = [];
  /** The reply to one request; `hang` never replies (a provider that does not answer). */
  answer: (form: Record<string, string>) => { status: number; body: string; hang?: boolean } = () => ({ status: 200, body: JSON.stringify({ success: true, 'error-codes': [] }) });
  #server: Server | undefined;

  async start(): Promise<string> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        this.calls.push({ contentType: request.headers['content-type'], form });
        const { status, body, hang } = this.answer(form);
        if (!hang) response.writeHead(status, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/siteverify`;
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
