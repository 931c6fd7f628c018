/**
 * Who may use the admin REST API (spec document 1: "The admin API requires the persona named by
 * `admin.persona`"; document 3: `Authorization: Bearer <API_KEY>` of an administrator). The request
 * authenticates as every REST surface does (api/http/rest-auth.ts); the caller must then be a
 * member of `admin.persona`, the same membership that makes a platform administrator elsewhere.
 */
import type { FastifyReply } from 'fastify';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { resolvePersonas } from '../../shared/personas/index.js';
import { sendRestRefusal, unauthenticated, type RestAuthenticator, type RestRefusal, type RestRequest } from '../http/rest-auth.js';

export interface AdminForbidden {
  ok: false;
  status: 403;
  error: 'forbidden';
  message: string;
}

export type AdminDecision = { ok: true; caller: CallerContext } | RestRefusal | AdminForbidden;

export type AdminAuthorizer = (request: RestRequest) => Promise<AdminDecision>;

export function adminAuthorizer(config: Pick<PlatformConfig, 'admin' | 'personas'>, authenticate: RestAuthenticator): AdminAuthorizer {
  return async (request) => {
    const decision = await authenticate(request);
    if (!decision.ok) return decision;
    const { caller } = decision;
    // An anonymous caller is nobody in particular, whatever persona a fallback would give it.
    if (caller.authType === 'anonymous') return unauthenticated('the admin API needs an administrator\'s API key (Authorization: Bearer)');
    const members = resolvePersonas(caller, config.personas).members;
    if (!members.some((persona) => persona.name === config.admin.persona)) {
      return { ok: false, status: 403, error: 'forbidden', message: `the admin API is for members of the persona "${config.admin.persona}" (admin.persona)` };
    }
    return { ok: true, caller };
  };
}

/** Answers a refused admin request as `{error, message}` (401 with the Bearer challenge). */
export function sendAdminRefusal(reply: FastifyReply, refusal: RestRefusal | AdminForbidden): FastifyReply {
  if (refusal.error === 'forbidden') return reply.code(403).send({ error: refusal.error, message: refusal.message });
  return sendRestRefusal(reply, refusal);
}
