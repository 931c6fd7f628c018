/**
 * A resource's thumbnail (spec document 2, "Thumbnail" and its state table), from
 * `resource.thumbnail` of GET /api/v1/resources/{id}:
 *
 *  - icon: the content-type icon (a family never drawn, or a file over its bound);
 *  - none / drawing: a spinner while the draw is under way, polling the resource (TanStack Query's
 *    refetchInterval) until the state moves on;
 *  - drawn: the tile, GET …/thumbnail?variant=light|dark following the portal's theme (image for
 *    SVG, PDF and pictures); each tile read is audited by the api under portal_preview;
 *  - stale: the old tile keeps showing, marked as updating, while the new one is drawn (polled);
 *  - failed: the recorded reason and the variant that failed.
 *
 * Recapture (drawn) and Try again (failed) are offered where `allowed_actions.recapture` says the
 * api accepts POST …/thumbnail/recapture, and never while a draw is under way. The resource may
 * come from a listing (no thumbnail field): the view then reads it by id.
 */
import { useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LoaderCircle, RefreshCw, TriangleAlert } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
import type { Resource, Thumbnail } from '../../api/types';
import { useTheme } from '../../app/theme';
import { ErrorMessage } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { formatRelative } from '../../ui/format';
import { FileIcon } from './FileIcon';
import { useObjectUrl } from './object-url';
import { fetchResource, resourceKey } from './queries';
import './preview.css';

type Variant = 'light' | 'dark' | 'image';

/** States in which a draw is under way: the resource is polled until it leaves them. */
function underWay(thumbnail: Thumbnail | undefined): boolean {
  return thumbnail?.state === 'none' || thumbnail?.state === 'drawing' || thumbnail?.state === 'stale';
}

/** Every second for the first minute of a draw, then every five (a draw lands within seconds; a stuck one is not hammered). */
function pollInterval(polls: number): number {
  return polls < 60 ? 1000 : 5000;
}

function tileVariant(thumbnail: Thumbnail, theme: 'light' | 'dark'): Variant | undefined {
  if (thumbnail.variants.includes('image')) return 'image';
  if (thumbnail.variants.includes(theme)) return theme;
  return thumbnail.variants[0];
}

export function ThumbnailView({ resource }: { resource: Resource }) {
  const { theme } = useTheme();
  const queryClient = useQueryClient();
  const figure = useRef<HTMLElement>(null);
  const live = useQuery({
    queryKey: resourceKey(resource.id),
    queryFn: () => fetchResource(resource.id),
    ...(resource.thumbnail ? { initialData: resource } : {}),
    staleTime: 10_000,
    refetchInterval: (query) => (underWay((query.state.data as Resource | undefined)?.thumbnail) ? pollInterval(query.state.dataUpdateCount) : false),
  });
  const current = (live.data as Resource | undefined) ?? resource;
  const thumbnail = current.thumbnail;
  const variant = thumbnail ? tileVariant(thumbnail, theme) : undefined;
  const showsTile = !!thumbnail && variant !== undefined && (thumbnail.state === 'drawn' || thumbnail.state === 'stale' || thumbnail.state === 'failed');

  const tile = useQuery({
    queryKey: ['thumbnail-tile', resource.id, variant, thumbnail?.drawn_at ?? '', thumbnail?.drawn_from?.version ?? 0],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/resources/{id}/thumbnail', { params: { path: { id: resource.id }, query: { variant: variant! } }, parseAs: 'blob' })) as Blob,
    enabled: showsTile,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
    retry: false,
    // While the next tile loads (the other theme, a newer drawing) the one before keeps showing.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === resource.id ? previous : undefined),
  });
  const url = useObjectUrl(showsTile ? tile.data : undefined);

  const recapture = useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/resources/{id}/thumbnail/recapture', { params: { path: { id: resource.id } }, body: null })),
    onSuccess: (next) => {
      queryClient.setQueryData<Resource>(resourceKey(resource.id), (old) => ({ ...(old ?? current), thumbnail: next }));
      // The button goes while the draw runs: focus stays on the thumbnail, which announces the state.
      figure.current?.focus();
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: resourceKey(resource.id) }),
  });

  const state = thumbnail?.state;
  const canRecapture = current.allowed_actions.recapture && (state === 'drawn' || state === 'failed');

  let frame;
  if (!thumbnail) frame = <Spinner />;
  else if (thumbnail.state === 'icon') frame = <FileIcon resource={current} size={72} />;
  else if (showsTile && url) frame = <img className="thumbnail-image" src={url} alt={`Thumbnail of ${current.display_name}`} data-variant={variant} />;
  else if (showsTile && tile.isError) frame = <p className="thumbnail-frame-note">The thumbnail did not load: {messageOf(tile.error)}</p>;
  else if (thumbnail.state === 'failed') frame = <TriangleAlert className="thumbnail-failed-icon" aria-hidden size={48} strokeWidth={1.25} />;
  else frame = <Spinner />;

  return (
    <figure className="thumbnail" data-state={state ?? 'loading'} ref={figure} tabIndex={-1} aria-label={`Thumbnail of ${current.display_name}`}>
      <div className="thumbnail-frame">
        {frame}
        {state === 'stale' ? (
          <span className="thumbnail-badge">
            <LoaderCircle className="spin" aria-hidden size={14} /> Updating
          </span>
        ) : null}
      </div>
      <figcaption className="thumbnail-caption">
        <span className="thumbnail-state" role="status">
          {caption(current, thumbnail)}
        </span>
        {canRecapture ? (
          <Button onPress={() => recapture.mutate()} isDisabled={recapture.isPending}>
            <RefreshCw aria-hidden size={14} /> {state === 'failed' ? 'Try again' : 'Recapture'}
          </Button>
        ) : null}
      </figcaption>
      {recapture.isError ? <ErrorMessage>{messageOf(recapture.error)}</ErrorMessage> : null}
    </figure>
  );
}

function Spinner() {
  return <LoaderCircle className="thumbnail-spinner spin" aria-hidden size={40} strokeWidth={1.5} />;
}

function caption(resource: Resource, thumbnail: Thumbnail | undefined): string {
  if (!thumbnail) return 'Loading the thumbnail…';
  switch (thumbnail.state) {
    case 'icon':
      return thumbnail.icon_reason === 'too_large' ? 'No thumbnail: the file is larger than a thumbnail is drawn from.' : 'No thumbnail for this type of file.';
    case 'none':
      return 'Waiting to draw the thumbnail…';
    case 'drawing':
      return 'Drawing the thumbnail…';
    case 'drawn':
      return thumbnail.drawn_from ? `Drawn from version ${thumbnail.drawn_from.version}${drawnWhen(thumbnail)}.` : `Drawn${drawnWhen(thumbnail)}.`;
    case 'stale':
      return `Updating: this shows version ${thumbnail.drawn_from?.version ?? 'an older version'}; version ${resource.version} is being drawn.`;
    case 'failed':
      return thumbnail.failure
        ? `The thumbnail could not be drawn (${thumbnail.failure.variant} variant): ${thumbnail.failure.reason}`
        : 'The thumbnail could not be drawn.';
  }
}

function drawnWhen(thumbnail: Thumbnail): string {
  return thumbnail.drawn_at ? `, ${formatRelative(thumbnail.drawn_at)}` : '';
}
