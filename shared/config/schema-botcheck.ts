/**
 * platform.yaml section of the bot check's deployment keys (see schema.ts). The bot-check settings
 * themselves (provider, difficulty, …) are the settings section `bot_check`, stored in the database
 * and changed at run time (docs/botcheck.md); these keys are ours, fixed at start:
 * - bot_check.hosted_a_verify_url   Cloudflare Turnstile's siteverify URL (hosted_a)
 * - bot_check.hosted_b_verify_url   hCaptcha's siteverify URL (hosted_b)
 * - bot_check.verify_timeout        how long one siteverify call may take; past it the check could not be made (503)
 * The URLs are configurable so tests (or an egress proxy) can stand in for the providers.
 */

import { dur, httpUrl, obj } from './schema-fields.js';

export const botCheck = obj({
  hosted_a_verify_url: httpUrl().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  hosted_b_verify_url: httpUrl().default('https://api.hcaptcha.com/siteverify'),
  verify_timeout: dur('5s'),
});
