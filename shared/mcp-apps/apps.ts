import { appTools, BUILTIN_MCP_APP, ConfigError, formatPath, type ConfigIssue, type PlatformConfig } from '../config/index.js';
import { MAX_LOGO_BYTES, sanitiseSvg } from '../assets/index.js';
import { AppDirectory, AppFileError } from './files.js';
import { assembleAppDocument, MCP_APP_MIME_TYPE } from './document.js';
import { platformInfoPage, type PlatformBrand, type PlatformFacts } from './platform-info-page.js';
import { concurrencyGate } from './gate.js';

/**
 * The MCP Apps of `mcpapps.*` (spec document 1) as the MCP Apps extension (SEP-1865) has a server
 * offer them: each a `ui://` resource of MIME type text/html;profile=mcp-app whose `_meta.ui.csp`
 * declares the origins it needs, and the tools that surface it carrying `_meta.ui.resourceUri`
 * (plus the flat `ui/resourceUri` key the extension keeps for hosts of its earlier drafts).
 * `mcpapps.enabled: false`, or an app's `enabled: false`, leaves it out entirely.
 */

type AppsConfig = PlatformConfig['mcpapps'];

/**
 * Pages assembled from files at once in this process: each may hold its files (up to
 * MAX_APP_DOCUMENT_BYTES) and the page, so a burst of reads waits instead of piling them up.
 */
export const MAX_CONCURRENT_ASSEMBLIES = 4;

/** `_meta.ui.csp` of an app resource, in the extension's names. */
export interface McpAppCsp {
  resourceDomains?: string[];
  connectDomains?: string[];
}

/** An app as resources/list shows it. */
export interface McpAppListing {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  _meta?: { ui: { csp: McpAppCsp } };
}

/** The one item of a resources/read answer for an app. */
export interface McpAppContents {
  uri: string;
  mimeType: string;
  text: string;
  _meta?: { ui: { csp: McpAppCsp } };
}

/** What an app serves: the built-in page, or files under assets_path. */
type AppSource = { kind: 'builtin'; brand: PlatformBrand } | { kind: 'files'; dir: AppDirectory; entry: string; config?: Record<string, unknown> };

interface LoadedApp {
  name: string;
  uri: string;
  tools: readonly string[];
  csp?: McpAppCsp;
  source: AppSource;
}

/** The enabled apps, their directories and entry files checked. */
export interface LoadedMcpApps {
  readonly apps: readonly LoadedApp[];
}

function cspOf(csp: AppsConfig['apps'][string]['csp']): McpAppCsp | undefined {
  const out: McpAppCsp = {
    ...(csp?.resource_domains?.length ? { resourceDomains: [...csp.resource_domains] } : {}),
    ...(csp?.connect_domains?.length ? { connectDomains: [...csp.connect_domains] } : {}),
  };
  return Object.keys(out).length ? out : undefined;
}

function brandOf(config: Record<string, unknown>, issue: (key: string, message: string) => void): PlatformBrand {
  const text = (key: string) => (typeof config[key] === 'string' && config[key] !== '' ? (config[key] as string) : undefined);
  const brand: PlatformBrand = {};
  const name = text('brand_name');
  const url = text('brand_url');
  if (name !== undefined) brand.brand_name = name;
  if (url !== undefined) brand.brand_url = url;
  const logo = text('logo_svg');
  if (logo !== undefined) {
    if (Buffer.byteLength(logo) > MAX_LOGO_BYTES) issue('logo_svg', `larger than ${MAX_LOGO_BYTES} bytes`);
    else {
      const clean = sanitiseSvg(logo);
      if (clean === undefined) issue('logo_svg', 'not an SVG document (<svg>…</svg>)');
      else brand.logo_svg = clean;
    }
  }
  return brand;
}

/**
 * The enabled apps, each app's directory and entry file checked now, so a deployment whose
 * assets are missing or unreadable does not start: throws ConfigError naming every such key.
 * (The config schema and rules-mcpapps.ts already checked everything that needs no file system.)
 */
export function openMcpApps(config: AppsConfig): LoadedMcpApps {
  const issues: ConfigIssue[] = [];
  const apps: LoadedApp[] = [];
  if (!config.enabled) return { apps };
  // The built-in app exists without an entry of its own.
  const entries = Object.entries(config.apps);
  if (!config.apps[BUILTIN_MCP_APP]) entries.unshift([BUILTIN_MCP_APP, { enabled: true, entry_point: 'index.html', resource_uri: `ui://${BUILTIN_MCP_APP}` }]);
  for (const [name, app] of entries) {
    if (!app.enabled) continue;
    const key = (...rest: string[]) => formatPath(['mcpapps', 'apps', name, ...rest]);
    let source: AppSource;
    if (app.assets_path === undefined) {
      // Only the built-in app gets here: the config rules require assets_path of every other.
      source = { kind: 'builtin', brand: brandOf(app.config ?? {}, (k, message) => issues.push({ path: key('config', k), message })) };
    } else {
      try {
        source = { kind: 'files', dir: AppDirectory.open(app.assets_path, app.entry_point), entry: app.entry_point, ...(app.config ? { config: app.config } : {}) };
      } catch (error) {
        // AppDirectory.open reports the entry file as an AppFileError, the directory as an Error.
        issues.push({ path: key(error instanceof AppFileError ? 'entry_point' : 'assets_path'), message: (error as Error).message });
        continue;
      }
    }
    const csp = cspOf(app.csp);
    apps.push({ name, uri: app.resource_uri ?? `ui://${name}`, tools: appTools(name, app), ...(csp ? { csp } : {}), source });
  }
  if (issues.length) throw new ConfigError(issues);
  return { apps };
}

/** What the MCP surface asks of the apps. */
export interface McpApps {
  listing(): McpAppListing[];
  /** The app resource at `uri`, undefined when no enabled app has it. Throws AppFileError when its files cannot be served. */
  read(uri: string): Promise<McpAppContents | undefined>;
  /** The `_meta` a tool carries in tools/list when it surfaces an app. */
  toolMeta(tool: string): Record<string, unknown> | undefined;
  /** Every tool name the apps list, registered or not (the surface warns about the unknown ones). */
  toolNames(): string[];
}

/** The apps over what the built-in page shows: the platform's facts as they are at each read. */
export function mcpAppCatalogue(loaded: LoadedMcpApps, facts: () => PlatformFacts): McpApps {
  const byUri = new Map(loaded.apps.map((app) => [app.uri, app]));
  const toolMeta = new Map<string, Record<string, unknown>>();
  for (const app of loaded.apps) {
    for (const tool of app.tools) toolMeta.set(tool, { ui: { resourceUri: app.uri }, 'ui/resourceUri': app.uri });
  }
  const meta = (app: LoadedApp) => (app.csp ? { _meta: { ui: { csp: app.csp } } } : {});
  const assembly = concurrencyGate(MAX_CONCURRENT_ASSEMBLIES);
  return {
    listing: () =>
      loaded.apps.map((app) => ({
        uri: app.uri,
        name: app.name,
        ...(app.source.kind === 'builtin' ? { title: 'Platform information' } : {}),
        description:
          app.source.kind === 'builtin'
            ? "Interactive panel of this platform's facts (MCP App), shown with platform_info"
            : `MCP App ${app.name}${app.tools.length ? `, shown with ${app.tools.join(', ')}` : ''}`,
        mimeType: MCP_APP_MIME_TYPE,
        ...meta(app),
      })),
    async read(uri) {
      const app = byUri.get(uri);
      if (!app) return undefined;
      const source = app.source;
      const text =
        source.kind === 'builtin'
          ? platformInfoPage(facts(), source.brand)
          : await assembly(() => assembleAppDocument(source.dir, source.entry, source.config));
      return { uri: app.uri, mimeType: MCP_APP_MIME_TYPE, text, ...meta(app) };
    },
    toolMeta: (tool) => toolMeta.get(tool),
    toolNames: () => [...toolMeta.keys()],
  };
}
