// The bot check of public endpoints (spec document 3): settings, proof-of-work challenges and answers, hosted
// providers verified server-side, the answers used, and the entry point the endpoint request pipeline calls.
export {
  BOT_CHECK_CONNECTION,
  BOT_CHECK_PROVIDERS,
  MAX_CHALLENGE_TTL_SECONDS,
  MAX_DIFFICULTY_BITS,
  MAX_RATE_THRESHOLD,
  MIN_CHALLENGE_TTL_SECONDS,
  botCheckSettingsSchema,
  botCheckSettingsSection,
  isHosted,
  publicBindingRefusal,
  type BotCheckProvider,
  type BotCheckSettings,
  type HostedProvider,
} from './settings.js';
export { challengeDifficulty } from './difficulty.js';
export { clientNetwork } from './client-network.js';
export { BOT_CHECK_HEADER, MAX_ANSWER_LENGTH, checkAnswer, issueChallenge, leadingZeroBits, powRefusalReasons, type PowCheck, type PowRefusal } from './pow.js';
export { HOSTED_TOKEN_LIFETIME_SECONDS, SiteverifyUnavailable, siteverify, type SiteverifyResult, type SiteverifyTarget } from './hosted.js';
export { USED_ANSWER_GRACE_SECONDS, UsedAnswers, purgeUsedAnswers, type AnswerKind } from './used-answers.js';
export {
  BotCheck,
  type BotCheckEndpoints,
  type BotCheckOptions,
  type BotCheckRequest,
  type BotCheckScreening,
  type BotCheckVerdict,
  type ChallengeBody,
  type ChallengeOutcome,
  type PublicEndpoint,
} from './service.js';
