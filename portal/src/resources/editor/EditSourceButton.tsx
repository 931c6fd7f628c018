import type { Resource } from '../../api/types';

/**
 * "Edit source": opens a text-family file within the inline preview limit in the source editor,
 * where Save writes a new version (spec document 2, "Save in the source editor"). Renders nothing
 * where the file cannot be edited. (Placeholder until the editor lands.)
 */
export function EditSourceButton(_props: { resource: Resource }) {
  return null;
}
