/**
 * `npm install`'s `prepare` step and `npm run build:portal`: installs the portal's own packages and
 * builds it into portal/dist when either is out of date (shared/toolchain/portal-build.ts).
 */
import { ensurePortalBuilt } from '../shared/toolchain/index.js';

const { built } = await ensurePortalBuilt();
process.stderr.write(built ? 'portal built (portal/dist)\n' : 'portal is up to date (portal/dist)\n');
