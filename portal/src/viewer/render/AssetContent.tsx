/**
 * An asset's content, rendered safely (issue 38), the same in the public viewer and the portal's
 * asset pages: HTML and JSX in a sandboxed frame on an opaque origin whose CSP forbids network
 * access (api/portal/asset-frame.ts), never as markup of this origin; markdown rendered and
 * sanitised; CSV as a table; JSON and text as text; SVG and PNG as images (an SVG in an image runs
 * no script and loads nothing).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { parseCsv } from './csv';
import './render.css';

const Markdown = lazy(() => import('./Markdown'));

export interface AssetContentProps {
  contentType: string;
  name: string;
  /** Where the bytes are (same origin). */
  contentUrl: string;
  /** Where the sandboxed frame of HTML and JSX is (same origin). */
  frameUrl: string;
}

const maxTableRows = 2000;

function useText(url: string, enabled: boolean): { text?: string; error?: string } {
  const [state, setState] = useState<{ url?: string; text?: string; error?: string }>({});
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    fetch(url, { credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) throw new Error(`the content could not be read (${response.status})`);
        const text = await response.text();
        if (live) setState({ url, text });
      })
      .catch((error: unknown) => {
        if (live) setState({ url, error: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      live = false;
    };
  }, [url, enabled]);
  return state.url === url ? state : {};
}

function CsvTable({ text, name }: { text: string; name: string }) {
  const { rows, truncated } = parseCsv(text, maxTableRows + 1);
  const [head, ...body] = rows;
  if (!head) return <p className="asset-empty">The table is empty.</p>;
  return (
    <div className="asset-table-wrap" tabIndex={0} role="region" aria-label={`${name} (table)`}>
      <table className="asset-table">
        <thead>
          <tr>
            {head.map((cell, i) => (
              <th key={i} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {truncated ? <p className="asset-note">The first {maxTableRows} rows are shown; download the file for the rest.</p> : null}
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function AssetContent({ contentType, name, contentUrl, frameUrl }: AssetContentProps) {
  const framed = contentType === 'text/html' || contentType === 'text/jsx';
  const image = contentType === 'image/png' || contentType === 'image/svg+xml';
  const { text, error } = useText(contentUrl, !framed && !image);
  if (framed) {
    return <iframe className="asset-frame" sandbox="allow-scripts" src={frameUrl} title={`${name} (sandboxed preview)`} referrerPolicy="no-referrer" />;
  }
  if (image) return <img className="asset-image" src={contentUrl} alt={name} />;
  if (error) return <p className="asset-error" role="alert">{error}</p>;
  if (text === undefined) return <p className="asset-loading">Loading…</p>;
  switch (contentType) {
    case 'text/markdown':
      return (
        <Suspense fallback={<p className="asset-loading">Loading…</p>}>
          <Markdown text={text} />
        </Suspense>
      );
    case 'text/csv':
      return <CsvTable text={text} name={name} />;
    case 'application/json':
      return <pre className="asset-text" tabIndex={0} aria-label={`${name} (JSON)`}>{prettyJson(text)}</pre>;
    default:
      return <pre className="asset-text" tabIndex={0} aria-label={`${name} (text)`}>{text}</pre>;
  }
}
