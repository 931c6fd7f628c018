/**
 * The preview pane of the file manager (issue 36, "Preview pane"; hidden below 1280 px by the page's
 * CSS): the selected file read by id — its name, type, size and when it was updated, Download, Edit
 * source where offered, its thumbnail (ThumbnailView) — and its contents as the type allows:
 *
 *  - text within the api's inline preview bound: read-only in the editor (CodeMirror, loaded on
 *    demand), fetched from GET …/content;
 *  - a picture (a raster type the content route serves inline): the picture itself;
 *  - anything else, SVG included (user markup never renders on the portal's origin): its icon or
 *    thumbnail, with Download.
 *
 * Reading contents is a download to the api (audited, stamping last read), so the pane reads them
 * only when it is shown (from 1280 px) and once a selection has rested for a moment — not for each
 * row passed over with the arrow keys.
 */
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { messageOf, rawRequest } from '../../api/client';
import type { Resource } from '../../api/types';
import { ErrorMessage } from '../../ui/Alert';
import { formatBytes, formatRelative, formatTime } from '../../ui/format';
import { resourceAddress } from '../address';
import { CodeView } from '../editor/CodeView';
import { EditSourceButton } from '../editor/EditSourceButton';
import { contentKind, mediaType, type ContentKind } from './content-kind';
import { useObjectUrl } from './object-url';
import { contentPath, fetchResource, previewPath, resourceKey, useInlinePreviewBytes, useTextContent } from './queries';
import { ThumbnailView } from './ThumbnailView';
import './preview.css';

/** Pictures larger than this are not fetched into the pane (the thumbnail shows them; Download opens them). */
export const PICTURE_PREVIEW_BYTES = 20 * 1024 * 1024;

/** The width from which the page shows the pane (styles/base.css hides it below). */
const paneShown = '(min-width: 1280px)';

/** Contents (audited reads that stamp last read) are fetched once a selection has rested this long, not for every row passed over. */
const settleMs = 250;

export function PreviewPane({ resourceId }: { resourceId: string | undefined }) {
  const shown = useMediaQuery(paneShown);
  return (
    <aside className="preview-pane" aria-label="Preview">
      {!shown ? null : resourceId ? <ResourcePreview key={resourceId} id={resourceId} /> : <p className="preview-empty">Select a file to preview it.</p>}
    </aside>
  );
}

/** Whether a media query matches now, following changes (a hidden pane reads nothing). */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const follow = () => setMatches(list.matches);
    follow();
    list.addEventListener('change', follow);
    return () => list.removeEventListener('change', follow);
  }, [query]);
  return matches;
}

/** False until the component has been mounted for `ms` (the selection rested). */
function useSettled(ms: number): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return settled;
}

function ResourcePreview({ id }: { id: string }) {
  const titleId = useId();
  const settled = useSettled(settleMs);
  const query = useQuery({ queryKey: resourceKey(id), queryFn: () => fetchResource(id) });
  if (query.isPending) return <p className="loading">Loading…</p>;
  if (query.isError) return <ErrorMessage>{messageOf(query.error)}</ErrorMessage>;
  const resource = query.data;
  return (
    <article className="preview" aria-labelledby={titleId}>
      <header className="preview-header">
        <h2 className="preview-title" id={titleId}>
          {resource.display_name}
        </h2>
        {resource.display_name !== resource.file_name ? <p className="preview-file-name">{resource.file_name}</p> : null}
      </header>
      <dl className="preview-facts">
        <dt>Type</dt>
        <dd>{mediaType(resource.content_type)}</dd>
        <dt>Size</dt>
        <dd>{formatBytes(resource.size)}</dd>
        <dt>Updated</dt>
        <dd>
          <time dateTime={resource.updated_at} title={formatTime(resource.updated_at)}>
            {formatRelative(resource.updated_at)}
          </time>
        </dd>
        <dt>Version</dt>
        <dd>{resource.version}</dd>
      </dl>
      <div className="preview-actions">
        {resource.allowed_actions.read ? (
          <a className="button" href={contentPath(resource.id)} download={resource.file_name}>
            <Download aria-hidden size={16} /> Download
          </a>
        ) : null}
        <EditSourceButton resource={resource} />
        <Link className="button" to={resourceAddress(resource.id)}>
          Details
        </Link>
      </div>
      <ThumbnailView resource={resource} />
      <PreviewBody resource={resource} kind={contentKind(resource)} settled={settled} />
    </article>
  );
}

function PreviewBody({ resource, kind, settled }: { resource: Resource; kind: ContentKind; settled: boolean }) {
  const inlineBytes = useInlinePreviewBytes();
  if (kind.kind === 'text') {
    if (inlineBytes === undefined) return <p className="loading">Loading…</p>;
    if (resource.size > inlineBytes)
      return <p className="preview-note">This file is larger than {formatBytes(inlineBytes)}, the most shown here: download it to read it.</p>;
    return <TextPreview resource={resource} language={kind.language} settled={settled} />;
  }
  if (kind.kind === 'picture') {
    if (resource.size > PICTURE_PREVIEW_BYTES) return <p className="preview-note">This picture is larger than {formatBytes(PICTURE_PREVIEW_BYTES)}: download it to see it in full.</p>;
    return <PicturePreview resource={resource} settled={settled} />;
  }
  return <p className="preview-note">No preview of the contents for this type of file: download it to open it.</p>;
}

function TextPreview({ resource, language, settled }: { resource: Resource; language: Extract<ContentKind, { kind: 'text' }>['language']; settled: boolean }) {
  const content = useTextContent(resource, settled);
  if (content.isPending) return <p className="loading">Loading the text…</p>;
  if (content.isError) return <ErrorMessage>{messageOf(content.error)}</ErrorMessage>;
  if ('notText' in content.data) return <p className="preview-note">This file is not UTF-8 text: download it to read it.</p>;
  return (
    <section className="preview-text" aria-label="Text">
      <CodeView key={`${resource.id}:${resource.version}`} text={content.data.text} language={language} label={`Text of ${resource.display_name}`} readOnly />
    </section>
  );
}

function PicturePreview({ resource, settled }: { resource: Resource; settled: boolean }) {
  const picture = useQuery({
    enabled: settled,
    queryKey: ['picture', resource.id, resource.version, resource.content_sha256],
    queryFn: async () => (await rawRequest(previewPath(resource.id))).blob(),
    staleTime: Infinity,
    gcTime: 60_000,
  });
  const url = useObjectUrl(picture.data);
  const [unreadable, setUnreadable] = useState(false);
  if (picture.isError) return <ErrorMessage>{messageOf(picture.error)}</ErrorMessage>;
  if (unreadable) return <p className="preview-note">This browser cannot show the picture: its bytes do not read as {mediaType(resource.content_type)}. Download it to open it.</p>;
  if (!url) return <p className="loading">Loading the picture…</p>;
  return (
    <figure className="preview-picture">
      <img src={url} alt={resource.display_name} onError={() => setUnreadable(true)} />
    </figure>
  );
}
