/**
 * Where a resource may be moved (spec document 2, "Move to another library"): the libraries the
 * move rule offers for this file (authority.ts `mayMove`, the check `update` makes), and for a
 * platform administrator the people the platform has seen (people.ts), filtered and paged.
 */
import { mayMove, mayMoveToPeople, moveCandidates } from './authority.js';
import type { ResourceContext } from './context.js';
import { formatLibrary } from './library.js';
import { listSeenPeople } from './people.js';
import { rowLibrary } from './rows.js';
import { ResourceError, type MoveTargetsView, type ResourceActor, type ResourceService } from './types.js';

export const DEFAULT_PEOPLE_LIMIT = 100;
export const MAX_PEOPLE_LIMIT = 1000;

export function createMoveTargets(context: ResourceContext): Pick<ResourceService, 'moveTargets'> {
  const { db, visibleRow } = context;

  async function moveTargets(actor: ResourceActor, id: string, query: { q?: string; cursor?: string; limit?: number } = {}): Promise<MoveTargetsView> {
    const limit = query.limit ?? DEFAULT_PEOPLE_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PEOPLE_LIMIT) throw new ResourceError('invalid', `limit must be an integer from 1 to ${MAX_PEOPLE_LIMIT}`);
    const after = query.cursor ? Buffer.from(query.cursor, 'base64url').toString('utf8') : '';
    if (query.cursor && !after.startsWith('person:')) throw new ResourceError('invalid', 'cursor does not belong to this listing');
    const row = await visibleRow(actor, id);
    const target = { library: rowLibrary(row), uploader: row.uploader };
    const libraries = moveCandidates(actor).filter((to) => mayMove(actor, target, to));
    const current = row.library_kind === 'person' ? [row.library_key] : [];
    const people = mayMoveToPeople(actor, target)
      ? await listSeenPeople(db, {
          except: [actor.subject, ...current],
          ...(query.q ? { contains: query.q } : {}),
          after: after.slice('person:'.length),
          limit: limit + 1,
        })
      : [];
    const page = people.slice(0, limit).map((subject) => formatLibrary({ kind: 'person', subject }));
    const last = page[page.length - 1];
    return {
      libraries: libraries.map(formatLibrary),
      people: page,
      next_cursor: people.length > limit && last ? Buffer.from(last, 'utf8').toString('base64url') : null,
    };
  }

  return { moveTargets };
}
