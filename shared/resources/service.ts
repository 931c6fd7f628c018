/**
 * The managed-resources service: every write in one database transaction, bytes in the object
 * store (one object per version, written before the transaction that records it and removed
 * again when that transaction fails or loses a race), authority from authority.ts.
 *
 * Concurrency, in short:
 *  - one live resource per address: the unique index `resources_address` decides; the loser of
 *    two simultaneous creates re-reads the winner (row lock) and answers per its if_exists;
 *  - writes to an existing resource lock its row (`SELECT … FOR UPDATE`) and re-check it, so a
 *    replace racing a delete either lands before the delete (whose object sweep then includes
 *    it) or finds the resource gone (not_found, its uploaded object removed);
 *  - filing into a library takes a shared advisory lock on the library, folder delete an
 *    exclusive one, so a folder cannot be deleted (or renamed) while a file is being filed into it.
 */
import { createResourceContext, type ResourceServiceDeps } from './context.js';
import { createFolderRename } from './folder-rename.js';
import { createFolderWrites } from './folder-writes.js';
import { createResourceHistory } from './history.js';
import { createResourceListing } from './listing.js';
import { createMoveTargets } from './move-targets.js';
import { createResourceReads } from './reads.js';
import { createResourceThumbnails } from './thumbnails/service.js';
import { createTopLevelFolders } from './top-level.js';
import type { ResourceService } from './types.js';
import { createResourceWrites } from './writes.js';

export { resourceConnectionName, type ResourceServiceDeps } from './context.js';
export { auditToolOfDoor, MOVE_AUDIT_TOOL } from './audit-trail.js';

export function createResourceService(deps: ResourceServiceDeps): ResourceService {
  const context = createResourceContext(deps);
  return {
    ...createResourceWrites(context),
    ...createResourceReads(context),
    ...createResourceListing(context),
    ...createResourceHistory(context),
    ...createFolderWrites(context),
    ...createFolderRename(context),
    ...createMoveTargets(context),
    ...createTopLevelFolders(context),
    thumbnails: createResourceThumbnails(context),
    onChange: context.onChange,
    changeOrigin: context.changeOrigin,
  };
}
