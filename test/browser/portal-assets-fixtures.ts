/**
 * Seeding assets for the portal's browser tests (portal-assets*.test.ts, portal-viewer*.test.ts):
 * an agent's save_artifact as the person's own agent (the asset service over the rig's database and
 * storage, the writer an MCP session), and shares through the REST route as the person.
 */
import { createAssetService, type AssetService } from '../../shared/assets/index.js';
import { vouchedCaller, type SessionUser } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, resourceActor } from '../../shared/resources/index.js';
import { devIdentityIssuer } from '../../api/portal-auth/index.js';
import type { PortalRig } from '../support/portal.js';

export interface AssetSeeder {
  service: AssetService;
  /** save_artifact as `user`'s agent: the asset's id. */
  save(user: SessionUser, input: { name: string; content: string | Buffer; content_type: string; description?: string; tags?: string[]; sources?: string[]; asset_id?: string }): Promise<string>;
  /** POST /api/v1/portal/assets/{id}/shares as `user`: the viewer path (/portal/view/<token>) and the share. */
  share(user: SessionUser, assetId: string, body?: Record<string, unknown>): Promise<{ path: string; share: { id: string } }>;
}

export function assetSeeder(rig: PortalRig): AssetSeeder {
  const objstore = createObjstoreConnections(rig.config, { env: {} });
  const resources = createResourceService({ config: rig.config, db: rig.db, objstore, log: silentLogger() });
  const service = createAssetService({ config: rig.config, db: rig.db, objstore, resources, log: silentLogger() });
  return {
    service,
    async save(user, input) {
      const actor = resourceActor(vouchedCaller({ issuer: devIdentityIssuer, ...user }, 'browser_session'), { config: rig.config, origin: 'agent', sessionId: `session-of-${user.sub}` });
      const { content, ...rest } = input;
      const saved = await service.save(actor, { ...rest, content: Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8') });
      return saved.asset.id;
    },
    async share(user, assetId, body = {}) {
      const rest = await rig.restAs(user);
      const answer = await rest('POST', `/api/v1/portal/assets/${assetId}/shares`, body);
      if (answer.status !== 201) throw new Error(`share answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body as { path: string; share: { id: string } };
    },
  };
}
