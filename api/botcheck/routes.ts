/**
 * The bot check's public routes (spec document 3): `GET /botcheck/challenge?endpoint=<name>`
 * issues a challenge for a public endpoint (shared/botcheck BotCheck.challenge) and
 * `GET /botcheck/solver.js` serves the browser script that answers it (api/botcheck/solver.js, a
 * static file). No authentication: anyone may ask for a challenge, within the endpoint's challenge
 * bucket for the caller's network. The platform's CORS layer (the /mcp guard) is not involved: the challenge answers
 * cross-origin requests from the endpoint's own allowed_origins, like the endpoint itself, and
 * never allows credentials.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Counter } from 'prom-client';
import type { App } from '../http/app.js';
import type { BotCheck } from '../../shared/botcheck/index.js';
import { publicOperation } from '../http/openapi.js';
import { packageRoot } from '../../shared/toolchain/index.js';

export interface BotCheckRoutesOptions {
  /** Absent until the endpoint bindings are composed: then only solver.js is served. */
  botCheck?: BotCheck;
  /** `http_rate_limited_total`: a challenge refused past its challenge bucket counts as `limiter="endpoint"`. */
  rateLimited?: Counter<'limiter'>;
}

const tags = ['bot check'];

const errorSchema = z.object({ error: z.string().describe('not_found, rate_limited, unavailable, invalid_request'), message: z.string() }).describe('Error');

const challengeSchema = z
  .object({
    provider: z.enum(['pow', 'hosted_a', 'hosted_b', 'none']).describe('What answers the check: pow (solve challenge), a hosted widget (site_key), or none (no header needed)'),
    header: z.string().describe('The request header the answer goes in: X-Bot-Check'),
    challenge: z.string().optional().describe('pow: the signed challenge; the answer is "<challenge>:<counter>" (docs/botcheck.md)'),
    difficulty: z.number().int().optional().describe('pow: leading zero bits the SHA-256 of the answer must have'),
    expires_at: z.string().optional().describe('pow: when the challenge can no longer be answered'),
    site_key: z.string().optional().describe('hosted providers: the site key for their widget'),
  })
  .describe('A bot-check challenge');

/**
 * The solver's path: under the package root, which is the same from the sources and from a
 * compiled build (dist/ has only the compiled modules).
 */
function solverPath(): string {
  return join(packageRoot(import.meta.url), 'api', 'botcheck', 'solver.js');
}

export async function botCheckRoutes(app: App, opts: BotCheckRoutesOptions): Promise<void> {
  const solver = await readFile(solverPath(), 'utf8');

  app.addHook('onSend', async (_request, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
  });

  app.get(
    '/botcheck/solver.js',
    { schema: { operationId: 'getBotCheckSolver', security: publicOperation, tags, summary: 'The browser script exposing PlatformBotCheck.answer(endpoint_name, {container}) and PlatformBotCheck.header' } },
    async (_request, reply) => reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(solver),
  );

  const { botCheck } = opts;
  if (!botCheck) return;
  app.get(
    '/botcheck/challenge',
    {
      schema: {
        operationId: 'issueBotCheckChallenge', security: publicOperation,
        tags,
        summary: 'Issue a bot-check challenge for a public endpoint',
        description:
          'Counted in a bucket of the endpoint and the caller\'s network (its IPv4 address, or IPv6 /64), the size of the endpoint\'s rate_limit (a minute\'s worth at once, refilled over the minute), on each replica (429 with Retry-After past it). 404 for a name that is not an enabled public endpoint; ' +
          '503 when no challenge can be issued (no auth.browser_session.signing_key for proof of work). Cross-origin requests are answered for the endpoint\'s allowed_origins.',
        querystring: z.object({ endpoint: z.string().regex(/^[a-z0-9_-]{1,128}$/, 'an endpoint name: lowercase letters, digits, "-" and "_"') }),
        response: { 200: challengeSchema, 400: errorSchema, 404: errorSchema, 429: errorSchema, 503: errorSchema },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store').header('vary', 'Origin');
      const outcome = await botCheck.challenge(request.query.endpoint, request.ip);
      if (!outcome.ok) {
        if (outcome.status === 429) {
          opts.rateLimited?.inc({ limiter: 'endpoint' });
          void reply.header('retry-after', String(outcome.retryAfterSeconds));
        }
        const error = outcome.status === 404 ? 'not_found' : outcome.status === 429 ? 'rate_limited' : 'unavailable';
        return reply.code(outcome.status).send({ error, message: outcome.reason });
      }
      const origin = request.headers.origin;
      if (origin && outcome.allowedOrigins.includes(origin)) void reply.header('access-control-allow-origin', origin);
      return outcome.body;
    },
  );
}
