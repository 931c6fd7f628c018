/**
 * What a share link shows (spec document 1, "Public viewer behavior"; issue 38): the implementor
 * brand, the asset rendered safely (render/AssetContent.tsx), the share's notice (its own, the
 * built-in confidentiality notice, or none), and when the link expires in relative time (hidden
 * with hide_expiration or no expiry). Light or dark follows the system until the person picks one
 * with the toggle, which is kept (the portal's own preference, app/theme.tsx). A private share
 * asks the person it names to sign in; an unknown, revoked or expired link says it opens nothing.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Moon, Sun } from 'lucide-react';
import { api, ApiError, unwrap } from '../api/client';
import type { Answer } from '../api/types';
import { applyTheme, storedThemePreference, type Theme } from '../app/theme';
import { formatBytes, formatRelative, formatTime } from '../ui/format';
import { AssetContent } from './render/AssetContent';

type View = Answer<'viewSharedAsset'>;
type Brand = View['brand'];

const storageKey = 'portal.theme';

/** The share token: the last segment of /portal/view/<token>. */
function tokenOf(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  return decodeURIComponent(parts[2] ?? '');
}

function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(() => applyTheme(storedThemePreference()));
  useEffect(() => {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = () => setTheme(applyTheme(storedThemePreference()));
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  const toggle = () => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(storageKey, next);
    setTheme(applyTheme(next));
  };
  return [theme, toggle];
}

/** Re-renders every 30 s, so "expires in …" stays true while the page is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Header({ brand, theme, onToggle }: { brand: Brand | undefined; theme: Theme; onToggle(): void }) {
  const name = brand?.name || '';
  const mark = (
    <>
      {brand?.logo ? <img className="viewer-logo" src={brand.logo} alt={name ? '' : 'Logo'} /> : null}
      {name ? <span className="viewer-brand-name">{name}</span> : null}
    </>
  );
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <header className="viewer-header">
      <div className="viewer-brand">
        {brand?.url && (name || brand.logo) ? (
          <a href={brand.url} rel="noopener noreferrer" className="viewer-brand-link">
            {mark}
          </a>
        ) : (
          mark
        )}
      </div>
      <button type="button" className="viewer-theme" onClick={onToggle} aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`}>
        {theme === 'dark' ? <Sun aria-hidden size={16} /> : <Moon aria-hidden size={16} />}
        <span>{theme === 'dark' ? 'Light' : 'Dark'}</span>
      </button>
    </header>
  );
}

function Expiry({ at }: { at: string }) {
  const now = useNow();
  const past = new Date(at).getTime() <= now;
  return (
    <p className="viewer-expiry">
      <time dateTime={at} title={formatTime(at)}>
        {past ? 'This link has expired' : `This link expires ${formatRelative(at, now)}`}
      </time>
    </p>
  );
}

function Message({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="viewer-message">
      <h1>{title}</h1>
      {children}
    </section>
  );
}

export function ViewerApp() {
  const token = tokenOf(window.location.pathname);
  const [theme, toggleTheme] = useTheme();
  const [state, setState] = useState<{ view?: View; missing?: boolean; error?: string }>({});
  useEffect(() => {
    let live = true;
    api
      .GET('/api/v1/portal/view/{token}', { params: { path: { token } } })
      .then((result) => {
        if (live) setState({ view: unwrap(result) });
      })
      .catch((error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.status === 404) setState({ missing: true });
        else setState({ error: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      live = false;
    };
  }, [token]);

  const view = state.view;
  useEffect(() => {
    if (view?.state === 'open') document.title = view.asset.name;
  }, [view]);

  let body: ReactNode;
  if (state.missing) {
    body = (
      <Message title="This link does not open anything">
        <p>It may have expired or been revoked, or the address is incomplete. Ask the person who shared it for a new link.</p>
      </Message>
    );
  } else if (state.error) {
    body = (
      <Message title="The shared content cannot be shown">
        <p role="alert">{state.error}</p>
      </Message>
    );
  } else if (!view) {
    body = <p className="viewer-loading" aria-busy="true">Loading…</p>;
  } else if (view.state === 'sign_in') {
    body = (
      <Message title="Sign in to open this">
        <p>This was shared with a named person. Sign in as that person to open it.</p>
        {view.sign_in === 'provider' && view.sign_in_url ? (
          <p>
            <a className="viewer-button" href={view.sign_in_url}>
              Sign in
            </a>
          </p>
        ) : view.sign_in === 'link' ? (
          <p>Open the one-time sign-in link the platform printed when it started, then open this address again.</p>
        ) : (
          <p>This platform does not sign people in through the browser, so a private share cannot be opened here.</p>
        )}
      </Message>
    );
  } else {
    const { asset, share } = view;
    const base = `/api/v1/portal/view/${encodeURIComponent(token)}`;
    body = (
      <article className="viewer-asset" aria-labelledby="viewer-title">
        <div className="viewer-asset-head">
          <h1 id="viewer-title">{asset.name}</h1>
          {asset.description ? <p className="viewer-description">{asset.description}</p> : null}
          <p className="viewer-meta">
            Updated {formatTime(asset.updated_at)} · {formatBytes(asset.size)} ·{' '}
            <a href={`${base}/content`} download>
              Download
            </a>
          </p>
          {share.expires_at ? <Expiry at={share.expires_at} /> : null}
          {share.notice ? (
            <aside className="viewer-notice" role="note" aria-label="Notice">
              {share.notice}
            </aside>
          ) : null}
        </div>
        <AssetContent
          contentType={asset.content_type}
          name={asset.name}
          contentUrl={`${base}/content`}
          frameUrl={`/portal/view/${encodeURIComponent(token)}/frame?theme=${theme}`}
        />
      </article>
    );
  }

  return (
    <div className="viewer">
      <Header brand={view?.brand} theme={theme} onToggle={toggleTheme} />
      <main className="viewer-main">{body}</main>
    </div>
  );
}
