/**
 * The bot-check settings (spec document 3, "Bot-check settings", settings section `bot_check`):
 * every field with the spec's default, read on every challenge and answer, so a PUT on one replica
 * applies on every replica's next request. The bounds are ours:
 *
 * - challenge_ttl_seconds 30 … 3600: time to solve at max_difficulty on a slow phone, yet short
 *   enough that used answers are not kept long
 * - difficulty, max_difficulty 1 … 28 and difficulty ≤ max_difficulty: each bit doubles the
 *   expected work, and 28 bits (268 million hashes on average) is already minutes in a browser
 * - rate_threshold 1 … 1,000,000 answers a minute
 * - site_key, secret_name: required with a hosted provider; secret_name names a stored secret
 *   (shared/secrets) whose allow_connections names `bot_check` and which lists no personas
 */
import { z } from 'zod';
import { secretNameSchema } from '../secrets/index.js';
import type { SettingsSection } from '../settings/index.js';

export const BOT_CHECK_PROVIDERS = ['pow', 'hosted_a', 'hosted_b', 'none'] as const;
export type BotCheckProvider = (typeof BOT_CHECK_PROVIDERS)[number];
export type HostedProvider = Extract<BotCheckProvider, 'hosted_a' | 'hosted_b'>;

export const MIN_CHALLENGE_TTL_SECONDS = 30;
export const MAX_CHALLENGE_TTL_SECONDS = 3600;
export const MAX_DIFFICULTY_BITS = 28;
export const MAX_RATE_THRESHOLD = 1_000_000;
/** The connection name a hosted provider's stored secret must allow. */
export const BOT_CHECK_CONNECTION = 'bot_check';

/** Why a public endpoint may not be bound under these settings, or undefined when it may (provider none without allow_public_without_check). */
export function publicBindingRefusal(settings: Pick<BotCheckSettings, 'provider' | 'allow_public_without_check'>): string | undefined {
  return settings.provider === 'none' && !settings.allow_public_without_check
    ? 'the bot check\'s provider is none and allow_public_without_check is off (PUT /api/v1/admin/settings/bot-check)'
    : undefined;
}

export function isHosted(provider: BotCheckProvider): provider is HostedProvider {
  return provider === 'hosted_a' || provider === 'hosted_b';
}

const bits = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_DIFFICULTY_BITS)
    .describe(`${what} (1 to ${MAX_DIFFICULTY_BITS})`);

export const botCheckSettingsSchema = z
  .strictObject({
    provider: z
      .enum(BOT_CHECK_PROVIDERS)
      .default('pow')
      .describe('pow: our own proof of work; hosted_a: Cloudflare Turnstile; hosted_b: hCaptcha (verified server-side); none: no check'),
    allow_public_without_check: z
      .boolean()
      .default(false)
      .describe('With provider none, public endpoints are refused (503) and cannot be bound until this is set'),
    challenge_ttl_seconds: z
      .number()
      .int()
      .min(MIN_CHALLENGE_TTL_SECONDS)
      .max(MAX_CHALLENGE_TTL_SECONDS)
      .default(300)
      .describe(`How long a challenge may be answered (${MIN_CHALLENGE_TTL_SECONDS} to ${MAX_CHALLENGE_TTL_SECONDS})`),
    difficulty: bits('Leading zero bits required of the answer\'s SHA-256').default(16),
    rate_threshold: z
      .number()
      .int()
      .min(1)
      .max(MAX_RATE_THRESHOLD)
      .default(30)
      .describe('Answers accepted for the endpoint in the last minute past which difficulty rises: one bit per doubling'),
    max_difficulty: bits('Ceiling of the difficulty').default(22),
    site_key: z.string().min(1).max(256).nullable().default(null).describe('The hosted provider\'s site key, for its widget (hosted providers)'),
    secret_name: secretNameSchema
      .nullable()
      .default(null)
      .describe(`Name of the stored secret holding the hosted provider's secret key; it must allow connection ${BOT_CHECK_CONNECTION} and list no personas. The value is never returned`),
  })
  .superRefine((s, ctx) => {
    if (s.difficulty > s.max_difficulty) {
      ctx.addIssue({ code: 'custom', path: ['difficulty'], message: `must be at most max_difficulty (${s.max_difficulty})` });
    }
    if (isHosted(s.provider)) {
      if (s.site_key === null) ctx.addIssue({ code: 'custom', path: ['site_key'], message: `required with provider ${s.provider}` });
      if (s.secret_name === null) ctx.addIssue({ code: 'custom', path: ['secret_name'], message: `required with provider ${s.provider}` });
    }
  })
  .describe('Bot-check settings (settings section bot_check)');

export type BotCheckSettings = z.output<typeof botCheckSettingsSchema>;

export const botCheckSettingsSection: SettingsSection<typeof botCheckSettingsSchema> = { name: 'bot_check', schema: botCheckSettingsSchema };
