/**
 * The bot check composed over the platform database: the settings section `bot_check`, the stored
 * secrets the hosted providers read, and — once the endpoint bindings are given as
 * `BotCheckEndpoints` — the BotCheck the endpoint request pipeline calls and the challenge route.
 * The routes: /botcheck/ (api/botcheck/routes.ts) and, with `admin.enabled`,
 * `{admin.path_prefix}/settings/bot-check` and `{admin.path_prefix}/secrets`.
 */
import type { Counter } from 'prom-client';
import { decodeBase64Key, type PlatformConfig } from '../shared/config/index.js';
import { BotCheck, UsedAnswers, type BotCheckEndpoints } from '../shared/botcheck/index.js';
import { deriveKey } from '../shared/crypto/index.js';
import type { Db } from '../shared/db/index.js';
import type { Logger } from '../shared/logging/index.js';
import { SecretStore, storedSecretBox } from '../shared/secrets/index.js';
import { PlatformSettings } from '../shared/settings/index.js';
import type { App } from '../api/http/app.js';
import type { RouteContext } from '../api/start.js';
import { adminAuthorizer } from '../api/admin/authorize.js';
import { botCheckSettingsRoutes } from '../api/admin/bot-check-settings.js';
import { secretRoutes } from '../api/admin/secrets.js';
import { botCheckRoutes } from '../api/botcheck/routes.js';

export interface BotCheckServices {
  settings: PlatformSettings;
  secrets: SecretStore;
  /** The bot check of public endpoints; present when the endpoint bindings were given. */
  check?: BotCheck;
}

/** The bot-check key: HKDF of `auth.browser_session.signing_key` for purpose bot-check; none without that key. */
export function botCheckKey(config: Pick<PlatformConfig, 'auth'>): Uint8Array | undefined {
  const text = config.auth.browser_session.signing_key;
  const material = text === undefined ? undefined : decodeBase64Key(text);
  return material ? deriveKey(material, 'bot-check') : undefined;
}

export async function createBotCheckServices(opts: {
  config: PlatformConfig;
  db: Db;
  log: Logger;
  /** The endpoint bindings' view for the bot check; without it no challenge is issued and no BotCheck built. */
  endpoints?: BotCheckEndpoints;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}): Promise<BotCheckServices> {
  const { config, db } = opts;
  const settings = new PlatformSettings(db);
  const secrets = new SecretStore({ db, box: await storedSecretBox(config), ...(opts.clock ? { clock: opts.clock } : {}) });
  if (!opts.endpoints) return { settings, secrets };
  const timeoutMs = config.bot_check.verify_timeout;
  const check = new BotCheck({
    settings,
    answers: new UsedAnswers(db),
    secrets,
    endpoints: opts.endpoints,
    powKey: botCheckKey(config),
    siteverify: {
      hosted_a: { url: config.bot_check.hosted_a_verify_url, timeoutMs },
      hosted_b: { url: config.bot_check.hosted_b_verify_url, timeoutMs },
    },
    log: opts.log.child({ component: 'bot-check' }),
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  return { settings, secrets, check };
}

/** Registers the /botcheck/ routes and, with `admin.enabled`, the settings and secrets admin routes. */
export async function registerBotCheckRoutes(
  app: App,
  ctx: RouteContext,
  opts: { config: PlatformConfig; services: BotCheckServices; rateLimited?: Counter<'limiter'>; now?: () => number },
): Promise<void> {
  const { config, services } = opts;
  await app.register(botCheckRoutes, { ...(services.check ? { botCheck: services.check } : {}), ...(opts.rateLimited ? { rateLimited: opts.rateLimited } : {}) });
  if (!config.admin.enabled) return;
  const authorize = adminAuthorizer(config, ctx.authenticate);
  await app.register(botCheckSettingsRoutes, {
    prefix: `${config.admin.path_prefix}/settings/bot-check`,
    settings: services.settings,
    secrets: services.secrets,
    authorize,
    ...(opts.now ? { now: opts.now } : {}),
  });
  await app.register(secretRoutes, { prefix: `${config.admin.path_prefix}/secrets`, secrets: services.secrets, authorize });
}
