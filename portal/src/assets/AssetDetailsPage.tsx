/**
 * One asset (/portal/assets/<id>; issue 38): its content rendered safely (the viewer's renderer:
 * HTML and JSX in a sandboxed frame, markdown sanitised, CSV as a table, SVG and PNG as images),
 * details, the resources it references (linking to their pages; a deleted one reported missing),
 * provenance, versions with Restore, shares with Revoke, and Edit details, Share and Delete —
 * each offered where `allowed_actions` says the server would accept it.
 */
import { useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Download, Pencil, Share2, Trash2 } from 'lucide-react';
import { messageOf } from '../api/client';
import { useTheme } from '../app/theme';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../ui/Alert';
import { Field } from '../ui/Field';
import { formatBytes, formatRelative, formatTime } from '../ui/format';
import { AssetContent } from '../viewer/render/AssetContent';
import { ShareDialog } from './ShareDialog';
import { assetApi, typeLabel, useAsset, useAssetShares, useAssetVersions, useRefreshAsset, type AssetDetail, type Share } from './queries';
import './assets.css';

function EditDetailsDialog({ asset, isOpen, onClose }: { asset: AssetDetail; isOpen: boolean; onClose(): void }) {
  const [name, setName] = useState(asset.name);
  const [description, setDescription] = useState(asset.description);
  const [tags, setTags] = useState(asset.tags.join(', '));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const refresh = useRefreshAsset();
  async function save() {
    setBusy(true);
    setError(undefined);
    try {
      await assetApi.update(asset.id, { name, description, tags: tags.split(',').map((t) => t.trim()).filter(Boolean) });
      await refresh(asset.id);
      onClose();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog title="Edit details" isOpen={isOpen} onOpenChange={(open) => (open ? undefined : onClose())}>
      <form
        className="share-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) void save();
        }}
      >
        <Field label="Name" value={name} onChange={setName} autoFocus />
        <Field label="Description" multiline value={description} onChange={setDescription} />
        <Field label="Tags" description="Separated by commas" value={tags} onChange={setTags} />
        <ErrorMessage>{error}</ErrorMessage>
        <DialogActions>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" isDisabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ asset, isOpen, onClose }: { asset: AssetDetail; isOpen: boolean; onClose(): void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const refresh = useRefreshAsset();
  async function remove() {
    setBusy(true);
    setError(undefined);
    try {
      await assetApi.remove(asset.id);
      await refresh(asset.id);
      navigate('/assets', { state: { focusHeading: true } });
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  }
  return (
    <Dialog title={`Delete “${asset.name}”?`} role="alertdialog" isOpen={isOpen} onOpenChange={(open) => (open ? undefined : onClose())}>
      <p>Every version goes, and every share link stops working. This cannot be undone.</p>
      <ErrorMessage>{error}</ErrorMessage>
      <DialogActions>
        <Button onPress={onClose} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" onPress={() => void remove()} isDisabled={busy}>
          {busy ? 'Deleting…' : 'Delete'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Versions({ asset }: { asset: AssetDetail }) {
  const versions = useAssetVersions(asset.id);
  const refresh = useRefreshAsset();
  const heading = useRef<HTMLHeadingElement>(null);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  async function restore(version: number) {
    setError(undefined);
    try {
      const restored = await assetApi.restore(asset.id, version);
      await refresh(asset.id);
      setStatus(`Version ${version} restored as version ${restored.version}.`);
      heading.current?.focus();
    } catch (e) {
      setError(messageOf(e));
    }
  }
  return (
    <section className="asset-section" aria-labelledby="versions-title">
      <h2 id="versions-title" ref={heading} tabIndex={-1}>
        Versions
      </h2>
      {status ? <StatusMessage>{status}</StatusMessage> : null}
      <ErrorMessage>{error}</ErrorMessage>
      {versions.isError ? <ErrorMessage>{messageOf(versions.error)}</ErrorMessage> : null}
      {versions.data ? (
        <table className="assets-table compact">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved</th>
              <th scope="col">By</th>
              <th scope="col">Change</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.data.map((v) => (
              <tr key={v.version}>
                <td>
                  {v.version}
                  {v.version === asset.version ? <span className="asset-badge current">current</span> : null}
                </td>
                <td>
                  <time dateTime={v.created_at} title={formatTime(v.created_at)}>
                    {formatRelative(v.created_at)}
                  </time>
                </td>
                <td>{v.origin === 'agent' ? `agent (${v.calls_recorded} tool calls on record)` : v.author}</td>
                <td>{v.change_summary ?? ''}</td>
                <td>
                  {asset.allowed_actions.change && v.version !== asset.version ? (
                    <Button onPress={() => void restore(v.version)} aria-label={`Restore version ${v.version}`}>
                      Restore
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function shareTarget(share: Share): string {
  if (share.public) return 'Anyone with the link';
  return [share.shared_with_user_id, share.shared_with_email].filter(Boolean).join(' · ');
}

function Shares({ asset, onShare }: { asset: AssetDetail; onShare(): void }) {
  const shares = useAssetShares(asset.id, asset.allowed_actions.share);
  const refresh = useRefreshAsset();
  const heading = useRef<HTMLHeadingElement>(null);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  async function revoke(share: Share) {
    setError(undefined);
    try {
      await assetApi.revoke(asset.id, share.id);
      await refresh(asset.id);
      setStatus('Share revoked: its link no longer opens anything.');
      heading.current?.focus();
    } catch (e) {
      setError(messageOf(e));
    }
  }
  if (!asset.allowed_actions.share) return null;
  return (
    <section className="asset-section" aria-labelledby="shares-title">
      <div className="asset-section-head">
        <h2 id="shares-title" ref={heading} tabIndex={-1}>
          Shares
        </h2>
        <Button onPress={onShare}>
          <Share2 aria-hidden size={16} /> New share
        </Button>
      </div>
      {status ? <StatusMessage>{status}</StatusMessage> : null}
      <ErrorMessage>{error}</ErrorMessage>
      {shares.data && shares.data.length === 0 ? <p className="muted">Not shared.</p> : null}
      {shares.data && shares.data.length > 0 ? (
        <table className="assets-table compact">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Expires</th>
              <th scope="col">Notice</th>
              <th scope="col">Views</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shares.data.map((s) => (
              <tr key={s.id}>
                <td>{shareTarget(s)}</td>
                <td>{s.expires_at ? <time dateTime={s.expires_at} title={formatTime(s.expires_at)}>{formatRelative(s.expires_at)}</time> : 'never'}{s.hide_expiration ? ' (hidden)' : ''}</td>
                <td>{s.notice_text === null ? 'confidentiality notice' : s.notice_text === '' ? 'none' : 'own'}</td>
                <td>{s.view_count}</td>
                <td>{s.state}</td>
                <td>
                  {s.state === 'active' ? (
                    <Button variant="danger" onPress={() => void revoke(s)} aria-label={`Revoke share: ${shareTarget(s)}`}>
                      Revoke
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function References({ asset }: { asset: AssetDetail }) {
  if (asset.references.length === 0) return null;
  return (
    <section className="asset-section" aria-labelledby="references-title">
      <h2 id="references-title">Resources it uses</h2>
      <ul className="asset-references">
        {asset.references.map((r) => (
          <li key={r.resource_id}>
            {r.missing ? (
              <span>
                <code>{r.reference}</code> — missing: the file was deleted
              </span>
            ) : r.readable ? (
              <Link to={`/resources/${r.resource_id}`}>{r.name}</Link>
            ) : (
              <span className="muted">A resource you cannot open</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Provenance({ asset }: { asset: AssetDetail }) {
  const p = asset.provenance;
  return (
    <section className="asset-section" aria-labelledby="provenance-title">
      <h2 id="provenance-title">Provenance</h2>
      <dl className="asset-facts">
        <dt>Saved by</dt>
        <dd>{p.origin === 'agent' ? `an agent acting for ${p.author}` : p.author}</dd>
        {p.session_id ? (
          <>
            <dt>Session</dt>
            <dd>
              <code>{p.session_id}</code>
            </dd>
          </>
        ) : null}
        {p.calls.length > 0 ? (
          <>
            <dt>Tool calls before it</dt>
            <dd>
              <details>
                <summary>{p.calls.length} on record</summary>
                <ol className="asset-calls">
                  {p.calls.map((c) => (
                    <li key={c.id}>
                      <code>{c.tool}</code> <span className="muted">{formatTime(c.at)} · {c.outcome}</span>
                    </li>
                  ))}
                </ol>
              </details>
            </dd>
          </>
        ) : null}
        {p.sources.length > 0 ? (
          <>
            <dt>Sources</dt>
            <dd>
              <ul className="asset-sources">
                {p.sources.map((s) => (
                  <li key={s}>
                    <code>{s}</code>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export function AssetDetailsPage() {
  const id = useParams().id!;
  const asset = useAsset(id);
  const { theme } = useTheme();
  const [dialog, setDialog] = useState<'edit' | 'share' | 'delete'>();
  const refresh = useRefreshAsset();
  if (asset.isError) {
    return (
      <section className="assets-page">
        <h1>Asset</h1>
        <ErrorMessage>{messageOf(asset.error)}</ErrorMessage>
        <p>
          <Link to="/assets">Back to My assets</Link>
        </p>
      </section>
    );
  }
  if (!asset.data) return <p className="loading">Loading…</p>;
  const a = asset.data;
  const contentUrl = `/api/v1/portal/assets/${encodeURIComponent(a.id)}/content`;
  return (
    <article className="assets-page asset-page" aria-labelledby="asset-title">
      <nav aria-label="Breadcrumb" className="asset-breadcrumb">
        <Link to={a.allowed_actions.change ? '/assets' : '/assets/shared'}>{a.allowed_actions.change ? 'My assets' : 'Shared with me'}</Link> <span aria-hidden>›</span>
      </nav>
      <header className="asset-head">
        <div>
          <h1 id="asset-title">{a.name}</h1>
          <p className="asset-meta">
            {typeLabel(a.content_type)} · {formatBytes(a.size)} · version {a.version} · updated{' '}
            <time dateTime={a.updated_at} title={formatTime(a.updated_at)}>
              {formatRelative(a.updated_at)}
            </time>
            {a.allowed_actions.change ? null : ` · shared by ${a.owner.email ?? a.owner.subject}`}
          </p>
        </div>
        <div className="asset-actions">
          <a className="button button-plain" href={contentUrl} download>
            <Download aria-hidden size={16} /> Download
          </a>
          {a.allowed_actions.change ? (
            <Button onPress={() => setDialog('edit')}>
              <Pencil aria-hidden size={16} /> Edit details
            </Button>
          ) : null}
          {a.allowed_actions.share ? (
            <Button onPress={() => setDialog('share')}>
              <Share2 aria-hidden size={16} /> Share
            </Button>
          ) : null}
          {a.allowed_actions.delete ? (
            <Button variant="danger" onPress={() => setDialog('delete')}>
              <Trash2 aria-hidden size={16} /> Delete
            </Button>
          ) : null}
        </div>
      </header>
      <div className="asset-body">
        <section className="asset-preview" aria-label="Preview">
          <AssetContent
            key={`${a.id}:${a.version}`}
            contentType={a.content_type}
            name={a.name}
            contentUrl={`${contentUrl}?version=${a.version}`}
            frameUrl={`/api/v1/portal/assets/${encodeURIComponent(a.id)}/frame?version=${a.version}&theme=${theme}`}
          />
        </section>
        <aside className="asset-side">
          <section className="asset-section" aria-labelledby="details-title">
            <h2 id="details-title">Details</h2>
            <dl className="asset-facts">
              <dt>Description</dt>
              <dd>{a.description || <span className="muted">none</span>}</dd>
              <dt>Tags</dt>
              <dd>{a.tags.length ? a.tags.join(', ') : <span className="muted">none</span>}</dd>
              <dt>Owner</dt>
              <dd>{a.owner.email ?? a.owner.subject}</dd>
              <dt>Created</dt>
              <dd>{formatTime(a.created_at)}</dd>
            </dl>
          </section>
          <References asset={a} />
          <Provenance asset={a} />
        </aside>
      </div>
      <Versions asset={a} />
      <Shares asset={a} onShare={() => setDialog('share')} />
      {dialog === 'edit' ? <EditDetailsDialog asset={a} isOpen onClose={() => setDialog(undefined)} /> : null}
      {dialog === 'delete' ? <DeleteDialog asset={a} isOpen onClose={() => setDialog(undefined)} /> : null}
      {dialog === 'share' ? (
        <ShareDialog
          assetId={a.id}
          assetName={a.name}
          isOpen
          onClose={(created) => {
            setDialog(undefined);
            if (created) void refresh(a.id);
          }}
        />
      ) : null}
    </article>
  );
}
