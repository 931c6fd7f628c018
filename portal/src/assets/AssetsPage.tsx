/**
 * My assets and Shared with me (issue 38): what agents saved for the signed-in person, and what
 * others shared with them privately; searched by name, description and tags (the api's `query`),
 * newest first, paged with Load more. Each name opens the asset's page (/portal/assets/<id>).
 */
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useSearchParams } from 'react-router';
import { Input, Label, SearchField } from 'react-aria-components';
import { Globe, Users } from 'lucide-react';
import { messageOf } from '../api/client';
import { Button } from '../ui/Button';
import { ErrorMessage } from '../ui/Alert';
import { formatBytes, formatRelative, formatTime } from '../ui/format';
import { typeLabel, useAssetList, type AssetSummary, type Scope } from './queries';
import './assets.css';

function SharedBadge({ asset }: { asset: AssetSummary }) {
  if (asset.shares.public_link) {
    return (
      <span className="asset-badge">
        <Globe aria-hidden size={14} /> Public link
      </span>
    );
  }
  if (asset.shares.active > 0) {
    return (
      <span className="asset-badge">
        <Users aria-hidden size={14} /> Shared ({asset.shares.active})
      </span>
    );
  }
  return <span className="muted">—</span>;
}

export function AssetsPage({ scope }: { scope: Scope }) {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const [text, setText] = useState(query);
  const location = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => setText(query), [query]);
  // Searching as the person types, a moment after they stop.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() !== query) setParams(text.trim() ? { q: text.trim() } : {}, { replace: true });
    }, 250);
    return () => clearTimeout(timer);
  }, [text, query, setParams]);
  // Arriving after a delete, focus lands on the page's heading (never lost).
  useEffect(() => {
    if ((location.state as { focusHeading?: boolean } | null)?.focusHeading) heading.current?.focus();
  }, [location.state]);
  const list = useAssetList(scope, query);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const title = scope === 'mine' ? 'My assets' : 'Shared with me';

  return (
    <section className="assets-page" aria-labelledby="assets-title">
      <header className="assets-header">
        <h1 id="assets-title" ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <nav className="assets-tabs" aria-label="Assets">
          <NavLink to="/assets" end className="assets-tab">
            My assets
          </NavLink>
          <NavLink to="/assets/shared" className="assets-tab">
            Shared with me
          </NavLink>
        </nav>
        <SearchField className="assets-search" value={text} onChange={setText} aria-label={`Search ${title.toLowerCase()}`}>
          <Label className="visually-hidden">Search {title.toLowerCase()}</Label>
          <Input className="field-input" placeholder="Search by name, description or tag" />
        </SearchField>
      </header>
      {list.isError ? <ErrorMessage>{messageOf(list.error)}</ErrorMessage> : null}
      {list.isPending ? <p className="loading">Loading…</p> : null}
      {list.isSuccess && items.length === 0 ? (
        <p className="assets-empty">
          {query
            ? `No asset matches “${query}”.`
            : scope === 'mine'
              ? 'No assets yet. Agents save what they make here (the save_artifact tool).'
              : 'Nothing has been shared with you yet.'}
        </p>
      ) : null}
      {items.length > 0 ? (
        <table className="assets-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Updated</th>
              <th scope="col">Size</th>
              <th scope="col">{scope === 'mine' ? 'Sharing' : 'Owner'}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((asset) => (
              <tr key={asset.id}>
                <td>
                  <Link to={`/assets/${asset.id}`} className="asset-link">
                    {asset.name}
                  </Link>
                  {asset.description ? <div className="asset-row-description">{asset.description}</div> : null}
                  {asset.tags.length > 0 ? (
                    <div className="asset-tags" aria-label="Tags">
                      {asset.tags.map((tag) => (
                        <span key={tag} className="asset-tag">
                          {tag}
                        </span>
                      ))}
                    </div>
                  ) : null}
                </td>
                <td>{typeLabel(asset.content_type)}</td>
                <td>
                  <time dateTime={asset.updated_at} title={formatTime(asset.updated_at)}>
                    {formatRelative(asset.updated_at)}
                  </time>
                </td>
                <td>{formatBytes(asset.size)}</td>
                <td>{scope === 'mine' ? <SharedBadge asset={asset} /> : (asset.owner.email ?? asset.owner.subject)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.hasNextPage ? (
        <p>
          <Button onPress={() => void list.fetchNextPage()} isDisabled={list.isFetchingNextPage}>
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </p>
      ) : null}
    </section>
  );
}

export function MyAssetsPage() {
  return <AssetsPage scope="mine" />;
}

export function SharedAssetsPage() {
  return <AssetsPage scope="shared_with_me" />;
}
