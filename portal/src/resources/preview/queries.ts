/**
 * The queries the preview pane, the thumbnail and the source editor share: one resource by id
 * (the key the details page uses too, so a refetch anywhere updates every view of it) and its text.
 */
import { useQuery } from '@tanstack/react-query';
import { api, rawRequest, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { usePortalSettings } from '../../app/settings';

export function resourceKey(id: string): readonly unknown[] {
  return ['resource', id];
}

export async function fetchResource(id: string): Promise<Resource> {
  return unwrap(await api.GET('/api/v1/resources/{id}', { params: { path: { id } } }));
}

/** The content route of a resource (download, picture, text). */
export function contentPath(id: string): string {
  return `/api/v1/resources/${encodeURIComponent(id)}/content`;
}

/** The content as the portal reads it to show it (not a download: audited as portal_preview, stamps no last read). */
export function previewPath(id: string): string {
  return `${contentPath(id)}?purpose=preview`;
}

/** The api's inline preview bound (GET /api/v1/portal/settings); undefined until it is known. */
export function useInlinePreviewBytes(): number | undefined {
  return usePortalSettings().data?.inline_preview_bytes;
}

/** A file's text: the bytes of its head version decoded as UTF-8, or `notText` when they are not (binary, another encoding). */
export type TextContent = { text: string } | { notText: true };

export function textContentKey(resource: Pick<Resource, 'id' | 'version' | 'content_sha256'>): readonly unknown[] {
  return ['resource-content', resource.id, resource.version, resource.content_sha256];
}

export async function fetchTextContent(id: string): Promise<TextContent> {
  const bytes = new Uint8Array(await (await rawRequest(previewPath(id))).arrayBuffer());
  if (bytes.includes(0)) return { notText: true };
  try {
    // A byte order mark is kept as a character, so saving writes the bytes back as they were.
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { notText: true };
  }
}

/** The head version's text, fetched once per version (GET …/content). */
export function useTextContent(resource: Pick<Resource, 'id' | 'version' | 'content_sha256'>, enabled: boolean) {
  return useQuery({
    queryKey: textContentKey(resource),
    queryFn: () => fetchTextContent(resource.id),
    enabled,
    staleTime: Infinity,
    gcTime: 60_000,
  });
}
