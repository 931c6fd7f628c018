/**
 * One resource (spec document 2, "Portal addresses"): /portal/resources/<id>, and the administrator
 * section /portal/admin/resources/<id> — the same page, its section named in the breadcrumb and
 * heading; what it shows is what the api answers the caller (a non-administrator at the admin
 * address sees exactly what the by-id routes give them). Controls follow allowed_actions.
 */
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { Download, SlidersHorizontal } from 'lucide-react';
import { messageOf } from '../api/client';
import type { Resource } from '../api/types';
import { useSession } from '../app/session';
import { usePortalSettings } from '../app/settings';
import { Button } from '../ui/Button';
import { formatBytes, formatRelative, formatTime } from '../ui/format';
import { folderAddress } from './address';
import { EditSourceButton } from './editor/EditSourceButton';
import { ThumbnailView } from './preview/ThumbnailView';
import { UsagePanel, UsedByPanel, WrittenBy } from './details/ActivityPanels';
import { CopyValue } from './details/CopyValue';
import { DeleteResource } from './details/DeleteResource';
import { EditDetailsDialog } from './details/EditDetailsDialog';
import { isPeopleLibrary, libraryLabel, searchSettingLabel } from './details/labels';
import { useLibraryNames, useResource } from './details/queries';
import { TablePanel } from './details/TablePanel';
import { VersionHistory } from './details/VersionHistory';
import { isDocumentImage } from './upload/rules';
import './details/details.css';

type Section = 'resources' | 'admin';

export function ResourceDetailsPage({ section }: { section: Section }) {
  const id = useParams().id!;
  const resource = useResource(id);
  if (resource.isError) {
    return (
      <article className="resource-details" data-section={section}>
        <Breadcrumb section={section} />
        <h1>This file cannot be shown</h1>
        <p className="error-message" role="alert">
          {messageOf(resource.error)}
        </p>
        <p>
          <Link to="/resources">Go to Resources</Link>
        </p>
      </article>
    );
  }
  if (!resource.data) {
    return (
      <article className="resource-details" data-section={section} aria-busy="true">
        <Breadcrumb section={section} />
        <p className="loading">Loading…</p>
      </article>
    );
  }
  return <ResourceDetails resource={resource.data} section={section} />;
}

function Breadcrumb({ section, resource }: { section: Section; resource?: Resource }) {
  const { subject } = useSession();
  const names = useLibraryNames();
  const crumbs: Array<{ label: string; to?: string }> = [];
  if (section === 'admin') crumbs.push({ label: 'Administration' });
  crumbs.push({ label: 'Resources', to: '/resources' });
  if (resource) {
    if (isPeopleLibrary(resource.library, subject)) crumbs.push({ label: 'People' });
    crumbs.push({ label: libraryLabel(resource.library, subject, names), to: folderAddress({ library: resource.library, path: '' }) });
    const parts = resource.path ? resource.path.split('/') : [];
    parts.forEach((name, i) => crumbs.push({ label: name, to: folderAddress({ library: resource.library, path: parts.slice(0, i + 1).join('/') }) }));
  }
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        {crumbs.map((c, i) => (
          <li key={i}>{c.to ? <Link to={c.to}>{c.label}</Link> : <span>{c.label}</span>}</li>
        ))}
        {resource ? (
          <li>
            <span aria-current="page">{resource.file_name}</span>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}

function ResourceDetails({ resource: r, section }: { resource: Resource; section: Section }) {
  const { subject } = useSession();
  const names = useLibraryNames();
  const settings = usePortalSettings();
  const [editing, setEditing] = useState(false);
  const [said, setSaid] = useState('');
  const brand = settings.data?.title;
  useEffect(() => {
    document.title = brand ? `${r.display_name} · ${brand}` : r.display_name;
  }, [r.display_name, brand]);
  const folderLabel = [...(isPeopleLibrary(r.library, subject) ? ['People'] : []), libraryLabel(r.library, subject, names), ...(r.path ? r.path.split('/') : [])].join(' / ');

  return (
    <article className="resource-details" data-section={section}>
      <Breadcrumb section={section} resource={r} />
      <header className="details-header">
        {section === 'admin' ? <p className="eyebrow">Administrator section</p> : null}
        <h1>{r.display_name}</h1>
        <p className="details-subtitle">
          <span className="wrap-anywhere">{r.file_name}</span> · {formatBytes(r.size)} · version {r.version} · updated {formatRelative(r.updated_at)}
        </p>
        <div className="details-actions" role="group" aria-label="File actions">
          <a className="button" href={`/api/v1/resources/${encodeURIComponent(r.id)}/content`} download={r.file_name}>
            <Download aria-hidden size={16} /> Download
          </a>
          {r.allowed_actions.change ? (
            <Button onPress={() => setEditing(true)}>
              <SlidersHorizontal aria-hidden size={16} /> Edit details
            </Button>
          ) : null}
          <EditSourceButton resource={r} />
          {r.allowed_actions.delete ? <DeleteResource resource={r} /> : null}
        </div>
        <p className="status-message" role="status">
          {said}
        </p>
      </header>
      {r.allowed_actions.change ? <EditDetailsDialog resource={r} isOpen={editing} onOpenChange={setEditing} onSaved={setSaid} /> : null}

      <div className="details-grid">
        <div className="details-main">
          <section className="details-section" aria-labelledby="details-title">
            <h2 id="details-title">Details</h2>
            <dl className="details-list">
              <dt>Display name</dt>
              <dd>{r.display_name}</dd>
              <dt>Description</dt>
              <dd className="description">{r.description ? r.description : <span className="muted">No description</span>}</dd>
              <dt>Tags</dt>
              <dd>
                {r.tags.length ? (
                  <ul className="tags" aria-label="Tags">
                    {r.tags.map((t) => (
                      <li key={t} className="tag">
                        {t}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span className="muted">No tags</span>
                )}
              </dd>
              <dt>Type</dt>
              <dd>
                <code>{r.content_type}</code>
                {isDocumentImage(r.file_name, r.content_type) ? <span className="muted"> · usable directly in generated documents</span> : null}
              </dd>
              <dt>Size</dt>
              <dd>
                {formatBytes(r.size)} ({r.size.toLocaleString()} bytes)
              </dd>
              <dt>Uploader</dt>
              <dd className="wrap-anywhere">{r.uploader}</dd>
              <dt>Updated</dt>
              <dd>
                <time dateTime={r.updated_at}>{formatTime(r.updated_at)}</time>
              </dd>
              <dt>Created</dt>
              <dd>
                <time dateTime={r.created_at}>{formatTime(r.created_at)}</time>
              </dd>
              <dt>Folder</dt>
              <dd>
                <Link to={folderAddress({ library: r.library, path: r.path })}>{folderLabel}</Link>
              </dd>
              <dt>Search setting</dt>
              <dd>{searchSettingLabel(r.search_setting)}</dd>
              <dt>Canonical URI</dt>
              <dd>
                <CopyValue value={r.uri} label="canonical URI" />
              </dd>
              <dt>Reference</dt>
              <dd>
                <CopyValue value={r.reference} label="reference" />
              </dd>
            </dl>
          </section>
          <TablePanel resource={r} />
        </div>
        <aside className="details-aside" aria-label="Preview and activity">
          <ThumbnailView resource={r} />
          <UsagePanel resource={r} />
          <WrittenBy resource={r} />
          <UsedByPanel resource={r} />
        </aside>
        <div className="details-wide">
          <VersionHistory resource={r} />
        </div>
      </div>
    </article>
  );
}
