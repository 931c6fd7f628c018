/**
 * The bot-check settings (spec document 3, "Bot-check settings"), read and written at
 * `{admin.path_prefix}/settings/bot-check` by administrators (api/admin/authorize.ts), checked
 * before any body is read. A PUT replaces the whole section (omitted fields take their defaults)
 * and applies on every replica's next request. `secret_name` is only a name: the stored secret's
 * value is never part of the settings, and a PUT naming a secret the bot check cannot read is
 * refused (400) with the reason.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app.js';
import { BOT_CHECK_CONNECTION, botCheckSettingsSchema, botCheckSettingsSection } from '../../shared/botcheck/index.js';
import type { SecretStore } from '../../shared/secrets/index.js';
import type { PlatformSettings } from '../../shared/settings/index.js';
import { sendAdminRefusal, type AdminAuthorizer } from './authorize.js';
import { restSecurity } from '../http/openapi.js';

export interface BotCheckSettingsRoutesOptions {
  settings: PlatformSettings;
  secrets: Pick<SecretStore, 'usableBy'>;
  authorize: AdminAuthorizer;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

const tags = ['admin: settings'];

const errorSchema = z
  .object({
    error: z.string().describe('invalid, invalid_request, unauthorized, forbidden'),
    message: z.string().describe('What went wrong, naming the field'),
  })
  .describe('Error');

export async function botCheckSettingsRoutes(app: App, opts: BotCheckSettingsRoutesOptions): Promise<void> {
  const subjects = new WeakMap<FastifyRequest, string>();
  const now = opts.now ?? Date.now;

  app.addHook('onRequest', async (request, reply) => {
    const decision = await opts.authorize(request);
    if (!decision.ok) return sendAdminRefusal(reply, decision);
    subjects.set(request, decision.caller.subject);
  });

  const errors = { 401: errorSchema, 403: errorSchema };

  app.get(
    '/',
    {
      schema: {
        operationId: 'getBotCheckSettings', security: restSecurity,
        tags,
        summary: 'Read the bot-check settings (settings section bot_check)',
        description: 'Every field, with its default when never written. secret_name is the stored secret\'s name; its value is never returned.',
        response: { 200: botCheckSettingsSchema, ...errors },
      },
    },
    async () => opts.settings.read(botCheckSettingsSection),
  );

  app.put(
    '/',
    {
      schema: {
        operationId: 'updateBotCheckSettings', security: restSecurity,
        tags,
        summary: 'Replace the bot-check settings',
        description:
          'The whole section: omitted fields take their defaults. difficulty must not exceed max_difficulty; a hosted provider needs site_key and secret_name, ' +
          `and secret_name must name a stored secret whose allow_connections names ${BOT_CHECK_CONNECTION} and which lists no personas. Applies on every replica's next request.`,
        body: botCheckSettingsSchema,
        response: { 200: botCheckSettingsSchema, 400: errorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.secret_name !== null) {
        const usable = await opts.secrets.usableBy(body.secret_name, BOT_CHECK_CONNECTION);
        if (!usable.ok) return reply.code(400).send({ error: 'invalid', message: `secret_name: ${usable.reason}` });
      }
      return opts.settings.write(botCheckSettingsSection, body, subjects.get(request)!, new Date(now()));
    },
  );
}
