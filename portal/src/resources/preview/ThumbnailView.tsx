import type { Resource } from '../../api/types';

/**
 * A resource's thumbnail with its state (none, drawing, drawn, stale, failed with the reason and
 * variant) and, where allowed, Recapture / Try again; the light or dark variant follows the theme.
 * (Placeholder until the preview pane lands.)
 */
export function ThumbnailView(_props: { resource: Resource }) {
  return null;
}
