/**
 * Which references hold a delete up (spec document 2, Errors). `manage_resource` is refused while
 * assets, prompts or a registered table point at the file, unless forced. In the portal, deleting a
 * resource prompts depend on goes ahead: the prompts keep serving and report the material as
 * missing. Assets and registered tables still hold a portal delete until it is forced, since
 * forcing drops the tables over the file.
 */
import type { ReferenceCounts, WriteOrigin } from './types.js';

/** The counts that refuse an unforced delete from `origin` (zero everywhere: it goes ahead). */
export function countsHoldingDelete(counts: ReferenceCounts, origin: WriteOrigin | undefined): ReferenceCounts {
  return origin === 'portal' ? { ...counts, prompts: 0 } : counts;
}

export function holdsDelete(counts: ReferenceCounts): boolean {
  return counts.assets + counts.prompts + counts.tables > 0;
}
