/**
 * The cross-key rules of `mcpapps.*` (spec document 1; the MCP Apps extension, SEP-1865), pure
 * like the rest of rules.ts. What needs the file system (assets_path exists, the entry file is
 * readable and inside it) is checked where the apps are loaded (shared/mcp-apps).
 *
 * Errors:
 * - assets_path required (and absolute) for apps other than the built-in platform-info
 * - entry_point relative to assets_path, without `..` segments
 * - resource_uri a `ui://` URI (the extension's scheme), unique among enabled apps and
 *   resources.custom
 * - csp.resource_domains / connect_domains origins (scheme://host[:port], `*.` subdomain
 *   wildcard): hosts build a Content-Security-Policy from them, so nothing else may pass
 * - a tool surfaces one app at most (a tool's `_meta.ui.resourceUri` names one resource)
 * - platform-info config: brand_name a string, brand_url an http(s) URL, logo_svg a string
 * Warnings: platform-info config keys it does not know.
 */

import path from 'node:path';
import { BUILTIN_MCP_APP } from './builtins.js';
import type { KeyPath } from './paths.js';
import type { PlatformConfig } from './schema.js';

type Report = (path: KeyPath, message: string, ...involves: string[]) => void;

/** The tools that surface the built-in app when its `tools` is not set. */
export const BUILTIN_APP_TOOLS: readonly string[] = ['platform_info'];

/** An origin a CSP source list may name: scheme, host (optionally `*.`-prefixed), port. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:\d{1,5})?$/;

const BRAND_KEYS = new Set(['brand_name', 'brand_url', 'logo_svg']);

/** The tools that surface an app: its `tools`, else the built-in app's default. */
export function appTools(name: string, app: PlatformConfig['mcpapps']['apps'][string]): readonly string[] {
  return app.tools ?? (name === BUILTIN_MCP_APP ? BUILTIN_APP_TOOLS : []);
}

export function checkMcpApps(config: PlatformConfig, err: Report, warn: Report): void {
  const at = (name: string, ...rest: string[]): KeyPath => ['mcpapps', 'apps', name, ...rest];
  const uris = new Map<string, string>(config.resources.custom.map((r) => [r.uri, 'resources.custom']));
  const toolOwners = new Map<string, string>();
  const apps = Object.entries(config.mcpapps.apps);
  // The built-in app exists without an entry; its tools count against the others'.
  if (config.mcpapps.enabled && !config.mcpapps.apps[BUILTIN_MCP_APP]) {
    for (const tool of BUILTIN_APP_TOOLS) toolOwners.set(tool, BUILTIN_MCP_APP);
    uris.set(`ui://${BUILTIN_MCP_APP}`, `mcpapps.apps.${BUILTIN_MCP_APP}`);
  }
  for (const [name, app] of apps) {
    if (name !== BUILTIN_MCP_APP) {
      if (app.assets_path === undefined) err(at(name, 'assets_path'), 'required for a custom app');
      else if (!path.isAbsolute(app.assets_path)) err(at(name, 'assets_path'), 'must be an absolute directory');
    }
    const entry = app.entry_point;
    if (path.isAbsolute(entry) || /^[A-Za-z]:/.test(entry) || entry.split(/[\\/]/).includes('..')) {
      err(at(name, 'entry_point'), 'must be a path relative to assets_path, without ".." segments');
    }
    for (const key of ['resource_domains', 'connect_domains'] as const) {
      (app.csp?.[key] ?? []).forEach((domain, i) => {
        if (!ORIGIN.test(domain)) err([...at(name, 'csp', key), i], `"${domain}" is not an origin (scheme://host[:port], e.g. https://cdn.example.com or https://*.example.com)`);
      });
    }
    if (name === BUILTIN_MCP_APP && app.assets_path === undefined) checkBrand(app.config ?? {}, at(name, 'config'), err, warn);
    if (!app.enabled || !config.mcpapps.enabled) continue;
    const uri = app.resource_uri;
    if (!/^ui:\/\/[^\s]+$/.test(uri)) err(at(name, 'resource_uri'), 'must be a ui:// URI (the MCP Apps scheme)');
    else if (uris.has(uri)) err(at(name, 'resource_uri'), `"${uri}" is already the URI of ${uris.get(uri)}`);
    else uris.set(uri, `mcpapps.apps.${name}`);
    for (const tool of appTools(name, app)) {
      const owner = toolOwners.get(tool);
      if (owner) err(at(name, 'tools'), `tool ${tool} already surfaces app ${owner}: a tool links to one app`);
      else toolOwners.set(tool, name);
    }
  }
}

function checkBrand(brand: Record<string, unknown>, at: KeyPath, err: Report, warn: Report): void {
  for (const key of Object.keys(brand)) {
    if (!BRAND_KEYS.has(key)) warn([...at, key], 'not a key of the built-in platform-info app (brand_name, brand_url, logo_svg): ignored');
  }
  for (const key of BRAND_KEYS) {
    const value = brand[key];
    if (value !== undefined && typeof value !== 'string') err([...at, key], 'expected a string');
  }
  const url = brand.brand_url;
  if (typeof url === 'string' && !isWebUrl(url)) err([...at, 'brand_url'], 'must be an http:// or https:// URL');
}

function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
