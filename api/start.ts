import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { PlatformConfig } from '../shared/config/index.js';
import { listen as listenOnChannel, type Db } from '../shared/db/index.js';
import type { Logger } from '../shared/logging/index.js';
import type { Metrics } from '../shared/metrics/index.js';
import {
  apiKeyAuthenticator,
  authenticateCredentials,
  namespaceLegacySubjects,
  oidcAuthenticator,
  type ApiKeyLookup,
  type Authenticator,
} from '../shared/identity/index.js';
import { buildHttpApp, parseListenAddress, startMetricsListener, type App } from './http/app.js';
import { UnauthenticatedBytes } from '../shared/inbound/index.js';
import { Readiness } from './http/readiness.js';
import { drainAndClose } from './http/shutdown.js';
import type { McpSurface } from './mcp/server.js';
import { LiveSessions, memorySessionCap, type Clock } from './mcp/sessions.js';
import { DatabaseSessions, endedSessionIds, sessionEndedChannel } from './mcp/database-sessions.js';
import { StandaloneStreams, streamableHttpRoutes, type StreamableMode } from './mcp/streamable.js';
import type { HttpTransport, StreamSettings } from './mcp/streamable/transport.js';
import { StreamRegistry } from './mcp/streamable/registry.js';
import { DatabaseStreamArchive } from './mcp/streamable/archive.js';
import { legacySseRoutes } from './mcp/legacy-sse.js';
import { isLoopbackHost, mcpBodyLimit } from './mcp/http-rules.js';
import { mcpEndpointPath, protectedResourceOf, protectedResourceRoutes } from './mcp/protected-resource.js';
import { mcpPathItem } from './mcp/openapi.js';
import { securitySchemesOf } from './http/openapi.js';
import { createOAuthSetup, oauthIssuer, oauthRetention } from '../shared/oauth/index.js';
import { oauthRoutes } from './oauth/routes.js';
import { restAuthenticator, type RestAuthenticator } from './http/rest-auth.js';
import { browserSignIn, type DevSignIn } from './portal-auth/index.js';
import { portalAppRoutes } from './portal/app-routes.js';
import { logoOrigins } from './portal/app-rules.js';
import { portalSettingsRoute } from './portal/settings-route.js';
import { assetRoutes } from './portal/assets.js';
import { loadImplementorLogo, viewerRoutes } from './portal/viewer.js';
import { loadJsxRuntimePage, VIEWER_PAGE } from './portal/asset-frame.js';
import type { AssetService } from '../shared/assets/index.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { portalDistDir } from '../shared/toolchain/index.js';
import { adminAuthorizer } from './admin/authorize.js';
import { webhookSourceRoutes } from './admin/webhook-sources.js';
import type { WebhookJobs, WebhookReceiver, WebhookRejections, WebhookRequestCounts, WebhookSources, WebhookWindows } from '../shared/webhooks/index.js';
import { continueHooksOnRead, hookRoutes } from './hooks/routes.js';
import { startHookListener } from './hooks/listener.js';

export interface ApiDeps {
  config: PlatformConfig;
  log: Logger;
  metrics: Metrics;
  surface: McpSurface;
  db?: Db;
  /** Keys the platform created (the embedded admin key); configured keys come from config. */
  storedApiKeys?: ApiKeyLookup;
  readinessChecks?: Record<string, () => Promise<boolean>>;
  /** Further surfaces (object-store presigned URLs, resources, later portal/admin/…), registered before listening. */
  routes?: (app: App, ctx: RouteContext) => Promise<unknown>;
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** A browser sign-in other than the identity provider's (`platform dev`'s one-time link); the provider's wins when configured. */
  signIn?: DevSignIn;
  /** The portal's build served at /portal/ when `portal.enabled` (default portal/dist; tests may name another). */
  portalDistDir?: string;
  /** Assets and shares (issue 38): their REST routes and the public viewer, served when `portal.enabled`. */
  assets?: AssetService;
  /**
   * Inbound webhooks: sources administered under `{admin.path_prefix}/webhooks/sources` when
   * `admin.enabled`; the receiver serves /hooks/ when `webhooks.receiver.enabled`, on the api
   * port or on `webhooks.receiver.address`. With `jobs` (a Temporal client) a window retry starts
   * its compaction and a deletion the source's removal at once; without, the next sweep does.
   */
  webhooks?: {
    sources: WebhookSources;
    rejections: WebhookRejections;
    windows: WebhookWindows;
    requestCounts: WebhookRequestCounts;
    receiver?: WebhookReceiver;
    jobs?: Pick<WebhookJobs, 'compact' | 'remove'>;
    /** The Temporal UI's page of a window's compaction workflow (temporal.ui_url); none: no links. */
    workflowUrl?: (source: string, window: string) => string;
  };
}

/** What a REST surface needs from the api. */
export interface RouteContext {
  /**
   * Authenticates a whole REST request: header credentials exactly as on /mcp, else the browser
   * session cookie (with its CSRF token on writes; api/http/rest-auth.ts).
   */
  authenticate: RestAuthenticator;
}

export interface RunningApi {
  app: App;
  /** Base URL, e.g. http://127.0.0.1:8080 */
  url: string;
  /** Base URL of the separate webhook listener (`webhooks.receiver.address`), when there is one. */
  hooksUrl?: string;
  readiness: Readiness;
  /** Drains and closes, as on SIGTERM. */
  stop(): Promise<void>;
}

/**
 * The authentication chain for HTTP, tried in order: API keys (which pass unknown bearer tokens
 * on), then tokens of our own OAuth server (HS256 ones; others pass), then OIDC, which rejects any
 * JWT it cannot verify.
 */
export function authenticationChain(config: PlatformConfig, log: Logger, stored?: ApiKeyLookup, oauth?: Authenticator): Authenticator[] {
  const chain: Authenticator[] = [];
  if (config.auth.api_keys.enabled || stored) {
    // The config rules guarantee key and name on every entry when api keys are enabled.
    const keys = config.auth.api_keys.enabled
      ? config.auth.api_keys.keys.flatMap((k) => (k.key && k.name ? [{ key: k.key, name: k.name, roles: k.roles }] : []))
      : [];
    chain.push(apiKeyAuthenticator(keys, stored));
  }
  if (oauth) chain.push(oauth);
  if (config.auth.oidc.enabled) chain.push(oidcAuthenticator(config.auth.oidc, { log: log.child({ component: 'oidc' }) }));
  return chain;
}

/** The names of the configured API keys (the stored ones are read inside the migration). */
function configuredKeyNames(config: PlatformConfig): string[] {
  return config.auth.api_keys.keys.map((k) => k.name).filter((name) => name !== '');
}

export async function startApi(deps: ApiDeps): Promise<RunningApi> {
  const { config, log } = deps;
  // Before anything is served: rows from before namespaced subjects must belong to their owners.
  if (deps.db) {
    await namespaceLegacySubjects(deps.db, { apiKeyNames: configuredKeyNames(config), oidcIssuer: config.auth.oidc.issuer, log });
  }
  const readiness = new Readiness();
  for (const [name, check] of Object.entries(deps.readinessChecks ?? {})) readiness.addCheck(name, check);
  const tls = config.server.tls.enabled && config.server.tls.cert_file && config.server.tls.key_file
    ? { certFile: config.server.tls.cert_file, keyFile: config.server.tls.key_file }
    : undefined;
  // One budget for the replica's unauthenticated bodies, whichever listener reads them.
  const inbound = {
    arrival: { headersTimeoutMs: config.server.headers_timeout, requestTimeoutMs: config.server.request_timeout },
    bodies: {
      readTimeoutMs: config.server.body_read_timeout,
      budget: new UnauthenticatedBytes(config.server.unauthenticated_body_bytes, (held) => deps.metrics.httpUnauthenticatedBodyBytes.set(held)),
    },
  };
  const app = await buildHttpApp({
    log,
    metrics: deps.metrics,
    readiness,
    bodyLimit: config.server.body_limit,
    ...inbound,
    version: config.server.version,
    serveMetrics: !config.metrics.address,
    ...(tls ? { tls } : {}),
    openapi: { securitySchemes: securitySchemesOf(config), paths: { [mcpEndpointPath]: mcpPathItem } },
  });

  const listen = parseListenAddress(config.server.address);
  const oauth = config.oauth.enabled ? await createOAuthSetup(config, { db: deps.db, log: log.child({ component: 'oauth' }), ...(deps.clock ? { clock: deps.clock } : {}) }) : undefined;
  const chain = authenticationChain(config, log, deps.storedApiKeys, oauth?.authenticator);
  const protectedResource = protectedResourceOf(config);
  const guard = {
    authenticate: (credentials: Parameters<typeof authenticateCredentials>[1]) =>
      authenticateCredentials(chain, credentials, config.auth.allow_anonymous),
    allowedOrigins: config.server.allowed_origins,
    loopbackOnly: isLoopbackHost(listen.host),
    realm: 'mcp',
    protectedResource,
    clock: deps.clock,
  };
  const limits = { ttlMs: config.sessions.ttl, idleMs: config.sessions.idle_timeout };
  const maxPerSubject = config.sessions.max_per_subject;
  const streamSessions = new LiveSessions<HttpTransport>(limits, deps.clock);
  const sseSessions = new LiveSessions<SSEServerTransport>(limits, deps.clock);
  // One identity's in-process sessions count together, whichever transport opened them.
  const admit = memorySessionCap(maxPerSubject, [streamSessions, sseSessions], deps.clock);
  const sessionDb = config.server.streamable.stateless && config.sessions.store === 'database' ? deps.db : undefined;
  const archive = sessionDb ? new DatabaseStreamArchive(sessionDb) : undefined;
  const streams: StreamSettings = {
    keepAliveMs: config.server.streamable.keep_alive,
    retryMs: config.server.streamable.retry_interval,
    window: config.server.streamable.replay_window,
    jsonWithinMs: config.server.streamable.json_answer_within,
    registry: new StreamRegistry(config.server.streamable.replay_ttl, deps.clock),
    ...(archive ? { archive } : {}),
    onError: (error) => log.warn({ err: error }, 'MCP stream could not be archived for replay'),
  };
  const standalone = sessionDb ? new StandaloneStreams(streams, deps.surface.connected) : undefined;
  const store = sessionDb ? new DatabaseSessions(sessionDb, limits, maxPerSubject, deps.clock) : undefined;
  // A session ended on another replica is forgotten here at once: its remembered row, its stream.
  const endedSessions =
    store && config.database.dsn
      ? await listenOnChannel({
          dsn: config.database.dsn,
          channel: sessionEndedChannel,
          onNotification: (payload) => {
            for (const id of endedSessionIds(payload)) {
              store.forget(id);
              void standalone?.close(id);
            }
          },
          onReconnected: () => store.forget(),
          log: log.child({ component: 'mcp-sessions' }),
          applicationName: 'platform-mcp-sessions',
        })
      : undefined;
  let mode: StreamableMode;
  if (config.server.streamable.stateless) {
    mode = { kind: 'stateless', ...(store ? { sessions: store } : {}), ...(standalone ? { standalone } : {}) };
  } else {
    mode = { kind: 'stateful', sessions: streamSessions, admit };
  }
  await app.register(protectedResourceRoutes, { resource: protectedResource });
  if (oauth) await app.register(oauthRoutes, { server: oauth.server, seal: oauth.seal, serverName: config.server.name, issuer: oauthIssuer(config), dcrEnabled: config.oauth.dcr.enabled, registrationsPerMinute: config.oauth.dcr.registrations_per_minute });
  const bodyLimit = mcpBodyLimit({ bodyLimit: config.server.body_limit, maxContentSize: config.portal.max_content_size });
  await app.register(streamableHttpRoutes, { surface: deps.surface, mode, guard, streams, bodyLimit });
  if (config.server.transport === 'sse') await app.register(legacySseRoutes, { surface: deps.surface, guard, sessions: sseSessions, admit, bodyLimit });

  // The cookie authenticates REST routes only, never /mcp (whose guard reads header credentials).
  const browser = browserSignIn(config, log.child({ component: 'browser-session' })) ?? deps.signIn;
  const authenticate = restAuthenticator({ authenticate: guard.authenticate, ...(browser ? { browser: browser.sessionOf } : {}) });
  if (browser) await browser.register(app, authenticate);
  if (config.admin.enabled && deps.webhooks) {
    const { sources, rejections, windows, requestCounts, jobs, workflowUrl } = deps.webhooks;
    await app.register(webhookSourceRoutes, {
      prefix: `${config.admin.path_prefix}/webhooks/sources`,
      sources,
      rejections,
      windows,
      requestCounts,
      sender: { publicBaseUrl: config.portal.public_base_url, receiverAddress: config.webhooks.receiver.address },
      ...(jobs ? { jobs } : {}),
      ...(workflowUrl ? { workflowUrl } : {}),
      ...(deps.clock ? { now: deps.clock } : {}),
      authorize: adminAuthorizer(config, authenticate),
    });
  }
  const receiver = config.webhooks.receiver.enabled ? deps.webhooks?.receiver : undefined;
  const hooksOn = receiver ? { receiver, ...(deps.clock ? { now: deps.clock } : {}) } : undefined;
  if (hooksOn && !config.webhooks.receiver.address) {
    await app.register(hookRoutes, hooksOn);
    continueHooksOnRead(app.server);
  }
  await deps.routes?.(app, { authenticate });
  if (config.portal.enabled) {
    const { portal } = config;
    const signInKind = !browser ? 'none' : browser === deps.signIn ? 'link' : 'provider';
    const distDir = deps.portalDistDir ?? portalDistDir;
    await app.register(portalSettingsRoute, { config, signIn: signInKind });
    await app.register(portalAppRoutes, { distDir, imageOrigins: logoOrigins([portal.logo, portal.logo_light, portal.logo_dark]) });
    if (deps.assets) {
      const jsxRuntimePage = loadJsxRuntimePage(distDir);
      await app.register(assetRoutes, { service: deps.assets, config, authenticate, ...(jsxRuntimePage ? { jsxRuntimePage } : {}) });
      // The implementor logo is fetched once, here (spec document 1: at start-up, at most 1 MB).
      const logo = await loadImplementorLogo(portal.implementor.logo, log.child({ component: 'portal-viewer' }));
      await app.register(viewerRoutes, {
        service: deps.assets,
        config,
        authenticate,
        signIn: signInKind,
        viewerPage: readFileSync(join(distDir, VIEWER_PAGE), 'utf8'),
        ...(jsxRuntimePage ? { jsxRuntimePage } : {}),
        ...(logo ? { logo } : {}),
      });
    }
  }

  const sweeper = setInterval(() => {
    void streamSessions.sweep();
    void sseSessions.sweep();
    streams.registry.sweep();
    if (store) standalone?.sweep((ids) => store.liveAmong(ids)).catch((error: unknown) => log.warn({ err: error }, 'MCP standalone stream sweep failed'));
    // In memory the api removes its own expired OAuth records; in the database, housekeeping does.
    if (oauth && !deps.db) void oauth.store.purgeExpired((deps.clock ?? Date.now)(), oauthRetention);
    archive?.prune(config.server.streamable.replay_ttl).catch((error: unknown) => log.warn({ err: error }, 'MCP stream archive pruning failed'));
  }, config.sessions.cleanup_interval);
  sweeper.unref();

  await app.listen({ host: listen.host, port: listen.port });
  const metricsApp = config.metrics.address ? await startMetricsListener(deps.metrics, config.metrics.address, log) : undefined;
  const hooksApp = hooksOn && config.webhooks.receiver.address
    ? await startHookListener({ ...hooksOn, ...inbound, address: config.webhooks.receiver.address, log, metrics: deps.metrics })
    : undefined;
  const bound = app.server.address();
  const port = typeof bound === 'object' && bound ? bound.port : listen.port;
  const host = listen.host === '0.0.0.0' || listen.host === '::' ? '127.0.0.1' : listen.host;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopping: Promise<void> | undefined;
  return {
    app,
    url,
    ...(hooksApp ? { hooksUrl: hooksApp.url } : {}),
    readiness,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweeper);
        const { forced } = await drainAndClose(app, {
          readiness,
          preShutdownDelayMs: config.server.shutdown.pre_shutdown_delay,
          gracePeriodMs: config.server.shutdown.grace_period,
          endStreams: async () => {
            await sseSessions.closeAll();
            streamSessions.endStandaloneStreams();
            standalone?.endStreams();
          },
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
        });
        if (forced) log.warn('shutdown grace period passed; remaining connections were closed');
        await streamSessions.closeAll();
        // Answered requests wait for their segments, so closing the listener waits for those writes.
        await hooksApp?.close();
        await receiver?.drain();
        await metricsApp?.close();
        await endedSessions?.close();
      })();
      return stopping;
    },
  };
}
