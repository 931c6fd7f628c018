import type { PlatformIdentity } from '../mcp-tools/index.js';
import { escapeHtml } from './document.js';

/**
 * The built-in `platform-info` app (ui://platform-info): one self-contained page, surfaced by the
 * platform_info tool. The server writes what it knows into it (the deployment's name, version,
 * description, tags and toolkits, and the operator's brand); the page's own script then speaks
 * the MCP Apps view protocol (SEP-1865) with the host — ui/initialize, the host's theme and style
 * variables, ui/notifications/tool-result — and shows the platform_info result it is given (the
 * caller's persona among it). Everything the script shows goes in as text (textContent), never as
 * markup; everything the server writes in is escaped; the logo is a sanitised SVG shown as an
 * image (a data: URI the extension's default CSP allows), where SVG never runs script.
 */

export interface PlatformBrand {
  brand_name?: string;
  brand_url?: string;
  /** Already sanitised (shared/assets sanitiseSvg). */
  logo_svg?: string;
}

export interface PlatformFacts {
  identity: PlatformIdentity;
  toolkits: readonly string[];
}

const STYLE = `
:root { color-scheme: light dark; }
body { margin: 0; padding: 16px 20px; font-family: var(--font-sans, system-ui, sans-serif); font-size: var(--font-text-md-size, 15px);
  color: var(--color-text-primary, light-dark(#171717, #f4f4f4)); background: var(--color-background-primary, light-dark(#ffffff, #1b1b1b)); }
header, header a { display: flex; align-items: center; gap: 10px; }
header { margin-bottom: 12px; }
header img { height: 32px; width: auto; }
header a, header span { color: inherit; font-weight: var(--font-weight-semibold, 600); text-decoration: none; }
header a:hover, header a:focus-visible { text-decoration: underline; }
a:focus-visible { outline: 2px solid var(--color-ring-primary, #2563eb); outline-offset: 2px; }
h1 { font-size: var(--font-heading-md-size, 20px); margin: 0 0 4px; }
h2 { font-size: var(--font-text-sm-size, 13px); text-transform: uppercase; letter-spacing: .04em; margin: 16px 0 6px;
  color: var(--color-text-secondary, light-dark(#525252, #bdbdbd)); }
p { margin: 4px 0; }
.muted { color: var(--color-text-secondary, light-dark(#525252, #bdbdbd)); }
ul.chips { list-style: none; display: flex; flex-wrap: wrap; gap: 6px; margin: 0; padding: 0; }
ul.chips li { padding: 2px 10px; border-radius: var(--border-radius-full, 999px);
  border: 1px solid var(--color-border-primary, light-dark(#d4d4d4, #4a4a4a)); background: var(--color-background-secondary, light-dark(#f5f5f5, #262626)); }
[hidden] { display: none !important; }
`;

// The view side of MCP Apps without an SDK: JSON-RPC over postMessage with the host (window.parent).
const SCRIPT = `
(function () {
  'use strict';
  // Opened on its own (no host around it), the page shows what the server wrote and speaks to nobody.
  if (window.parent === window) return;
  var nextId = 1, pending = {}, hostCapabilities = {};
  function send(message) { window.parent.postMessage(message, '*'); }
  function request(method, params) {
    var id = nextId++;
    send({ jsonrpc: '2.0', id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { send({ jsonrpc: '2.0', method: method, params: params || {} }); }
  function byId(id) { return document.getElementById(id); }
  function setText(id, text) { var el = byId(id); el.textContent = text; el.hidden = !text; }
  function setChips(id, items) {
    var list = byId(id);
    list.replaceChildren();
    items.forEach(function (item) { var li = document.createElement('li'); li.textContent = String(item); list.appendChild(li); });
    list.parentElement.hidden = items.length === 0;
  }
  function render(info) {
    if (!info || typeof info !== 'object') return;
    if (typeof info.name === 'string') setText('name', info.name);
    if (typeof info.version === 'string') setText('version', info.version ? 'Version ' + info.version : '');
    if (typeof info.description === 'string') setText('description', info.description);
    if (Array.isArray(info.tags)) setChips('tags', info.tags);
    if (Array.isArray(info.toolkits)) setChips('toolkits', info.toolkits);
    var persona = info.persona;
    if (persona && typeof persona === 'object') {
      setText('persona-name', String(persona.display_name || persona.name || ''));
      setText('persona-description', String(persona.description || ''));
      byId('persona').hidden = false;
    }
  }
  function applyContext(context) {
    if (!context || typeof context !== 'object') return;
    var root = document.documentElement;
    if (context.theme === 'light' || context.theme === 'dark') root.style.colorScheme = context.theme;
    var variables = context.styles && context.styles.variables;
    if (variables && typeof variables === 'object') {
      Object.keys(variables).forEach(function (key) {
        if (/^--[a-z0-9-]+$/.test(key) && typeof variables[key] === 'string') root.style.setProperty(key, variables[key]);
      });
    }
  }
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var message = event.data;
    if (!message || message.jsonrpc !== '2.0') return;
    if (!message.method) {
      var waiting = pending[message.id];
      if (!waiting) return;
      delete pending[message.id];
      if (message.error) waiting.reject(message.error); else waiting.resolve(message.result);
      return;
    }
    if (message.method === 'ui/notifications/tool-result') render(message.params && message.params.structuredContent);
    else if (message.method === 'ui/notifications/host-context-changed') applyContext(message.params);
    else if (message.id !== undefined) {
      var known = message.method === 'ping' || message.method === 'ui/resource-teardown';
      send(known ? { jsonrpc: '2.0', id: message.id, result: {} } : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    }
  });
  var link = byId('brand-link');
  if (link) link.addEventListener('click', function (event) {
    if (!hostCapabilities.openLinks) return;
    event.preventDefault();
    request('ui/open-link', { url: link.href }).catch(function () {});
  });
  request('ui/initialize', { appInfo: { name: 'platform-info', version: '1' }, appCapabilities: {}, protocolVersion: '2026-01-26' }).then(function (result) {
    hostCapabilities = (result && result.hostCapabilities) || {};
    applyContext(result && result.hostContext);
    notify('ui/notifications/initialized');
  }, function () {});
  var lastHeight = 0;
  new ResizeObserver(function () {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== lastHeight) { lastHeight = height; notify('ui/notifications/size-changed', { height: height }); }
  }).observe(document.body);
})();
`;

function chips(id: string, label: string, items: readonly string[]): string {
  const list = items.map((item) => `<li>${escapeHtml(item)}</li>`).join('');
  return `<section aria-labelledby="${id}-label"${items.length ? '' : ' hidden'}><h2 id="${id}-label">${label}</h2><ul class="chips" id="${id}">${list}</ul></section>`;
}

function brandHeader(brand: PlatformBrand): string {
  if (brand.brand_name === undefined && brand.logo_svg === undefined) return '';
  const name = brand.brand_name ?? '';
  const logo = brand.logo_svg
    ? `<img alt="${escapeHtml(name ? `${name} logo` : 'Logo')}" src="data:image/svg+xml;base64,${Buffer.from(brand.logo_svg).toString('base64')}">`
    : '';
  const label = name ? `<span>${escapeHtml(name)}</span>` : '';
  const inner = `${logo}${label}`;
  return brand.brand_url
    ? `<header><a id="brand-link" href="${escapeHtml(brand.brand_url)}" target="_blank" rel="noopener noreferrer">${inner}</a></header>`
    : `<header>${inner}</header>`;
}

/** The page, with the facts as they are now and the operator's brand. */
export function platformInfoPage(facts: PlatformFacts, brand: PlatformBrand): string {
  const { identity } = facts;
  const title = brand.brand_name ? `${brand.brand_name} · ${identity.name}` : identity.name;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
    '<body>',
    brandHeader(brand),
    '<main>',
    `<h1 id="name">${escapeHtml(identity.name)}</h1>`,
    `<p id="version" class="muted"${identity.version ? '' : ' hidden'}>${identity.version ? `Version ${escapeHtml(identity.version)}` : ''}</p>`,
    `<p id="description"${identity.description ? '' : ' hidden'}>${escapeHtml(identity.description ?? '')}</p>`,
    chips('tags', 'Domains', identity.tags),
    chips('toolkits', 'Toolkits', facts.toolkits),
    '<section id="persona" aria-labelledby="persona-label" hidden><h2 id="persona-label">Acting as</h2>',
    '<p id="persona-name"></p><p id="persona-description" class="muted"></p></section>',
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body></html>',
  ].join('\n');
}
