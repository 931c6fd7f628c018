/**
 * The portal's source editor (spec document 2, "Resource versions": "Save in the source editor |
 * text family, caller may change it, file within the inline preview limit | head vN+1 |
 * change_summary says edited in the portal"). A transition of its own, not a Replace content: the
 * server checks its conditions (source-rules.ts) and writes the change summary itself
 * (`EDITED_IN_PORTAL`), so the label never depends on what a client sends, and a replace from a
 * file picker is never labelled an edit.
 */
import { Readable } from 'node:stream';
import { refusal } from './authority.js';
import { EDITED_IN_PORTAL, INLINE_PREVIEW_BYTES, isTextFamily, sourceProblem } from './source-rules.js';
import { ResourceError, type ResourceActor, type ResourceService, type ResourceView } from './types.js';

export interface SaveSourceInput {
  /** The editor's text, UTF-8 encoded (at most INLINE_PREVIEW_BYTES). */
  text: Buffer;
  /** The version the editor opened: the save is refused (409) when the file has a newer head. */
  base_version: number;
}

/**
 * Saves the editor's text as the file's next version, labelled `edited in the portal`. Refusals:
 * not found (404) as every by-id route; `forbidden` (403) without the change rule; `invalid`
 * (400) for a file outside the text family or text that is not UTF-8; `too_large` (413) for a
 * file or text over the inline preview limit; `conflict` (409) when the head is not
 * `base_version` (checked again under the row lock as the version is written).
 */
export async function saveSource(service: ResourceService, actor: ResourceActor, id: string, input: SaveSourceInput): Promise<ResourceView> {
  const current = await service.get(actor, id);
  if (!current.allowed_actions.change) {
    throw new ResourceError('forbidden', refusal('change', current.library));
  }
  if (!isTextFamily(current)) throw new ResourceError('invalid', sourceProblem(current)!);
  if (current.size > INLINE_PREVIEW_BYTES) throw new ResourceError('too_large', sourceProblem(current)!, { limit_bytes: INLINE_PREVIEW_BYTES });
  if (!Number.isInteger(input.base_version) || input.base_version < 1) throw new ResourceError('invalid', 'base_version must be the version the editor opened (a positive integer)');
  if (input.base_version !== current.version) {
    throw new ResourceError('conflict', `the file changed since the editor opened version ${input.base_version}: its head is version ${current.version}; reload it before saving`, {
      head_version: current.version,
    });
  }
  if (input.text.length > INLINE_PREVIEW_BYTES) {
    throw new ResourceError('too_large', `the text is ${input.text.length} bytes, larger than the inline preview limit of ${INLINE_PREVIEW_BYTES} bytes`, { limit_bytes: INLINE_PREVIEW_BYTES });
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(input.text);
  } catch {
    throw new ResourceError('invalid', 'the text is not UTF-8: the source editor saves UTF-8 text');
  }
  return service.replaceContent(actor, id, {
    body: Readable.from([input.text]),
    content_type: current.content_type,
    change_summary: EDITED_IN_PORTAL,
    origin: 'portal',
    if_head: input.base_version,
  });
}
