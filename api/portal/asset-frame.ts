/**
 * The sandboxed frame HTML and JSX assets are shown in (issue 38: "HTML and JSX in a sandboxed
 * frame on an opaque origin with a CSP that forbids network access, never as markup on the
 * platform's origin"). The portal's preview and the public viewer embed it as
 * `<iframe sandbox="allow-scripts">`; the document's own CSP carries `sandbox allow-scripts` too,
 * so even opened on its own it runs on an opaque origin: no cookies, no storage of ours, no access
 * to the page around it. Its CSP allows no request at all — no fetch, no images or fonts but
 * data: and blob:, no frames, no forms, no base — and only the pages of this origin may frame it.
 * The embedding pages' own CSP (`frame-src 'self'`) keeps the frame from navigating elsewhere.
 *
 *  - HTML: the asset itself is the document; its inline scripts and styles run (a chart drawn by
 *    an inline script works), nothing it names on the network loads.
 *  - JSX: a small document holding the source as JSON data and the portal's JSX runtime
 *    (portal/jsx-frame.html: React and a JSX transform, served from /portal/assets/ with CORS so
 *    the opaque origin may load it). The runtime compiles the source in the frame and renders its
 *    default export; `script-src` names that folder of this origin and nothing else.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Built pages of the portal that are not the app (served by their own routes, never as files). */
export const JSX_FRAME_PAGE = 'jsx-frame.html';
export const VIEWER_PAGE = 'view.html';

const common = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'media-src data: blob:',
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts',
];

/** The CSP of an HTML asset's frame: its own inline script and style, nothing from the network. */
export const htmlFrameCsp = ["script-src 'unsafe-inline'", ...common].join('; ');

/** The CSP of a JSX asset's frame: the portal's JSX runtime (by folder of `origin`) and the eval it compiles with. */
export function jsxFrameCsp(origin: string): string {
  return [`script-src ${origin}/portal/assets/ 'unsafe-eval'`, ...common].join('; ');
}

/** The frame's other headers: never sniffed, never cached, no referrer (a viewer address carries its token). */
export const frameHeaders = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
  'referrer-policy': 'no-referrer',
};

/** The JSX runtime page as built (portal/dist/jsx-frame.html); undefined when this build has none. */
export function loadJsxRuntimePage(distDir: string): string | undefined {
  const path = join(distDir, JSX_FRAME_PAGE);
  return statSync(path, { throwIfNoEntry: false })?.isFile() ? readFileSync(path, 'utf8') : undefined;
}

/** JSON that is safe inside a <script> element: no `<`, and no line separators JavaScript would trip on. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** A JSX asset's frame document: the runtime page with the source added as data before its scripts run. */
export function jsxFrameDocument(runtimePage: string, source: string, theme: 'light' | 'dark' | undefined): string {
  const data = `<script type="application/json" id="jsx-source">${scriptJson({ source, theme: theme ?? null })}</script>`;
  return runtimePage.includes('</head>') ? runtimePage.replace('</head>', `${data}</head>`) : `${data}${runtimePage}`;
}

/** The origin this request reached (portal.public_base_url's, when set: behind a proxy the request's own may differ). */
export function requestOrigin(publicBaseUrl: string, request: { protocol: string; host: string }): string {
  if (publicBaseUrl) {
    try {
      return new URL(publicBaseUrl).origin;
    } catch {
      // fall through to the request's own
    }
  }
  return `${request.protocol}://${request.host}`;
}
