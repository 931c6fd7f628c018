import path from 'node:path';
import mime from 'mime-types';
import { AppFileError, type AppDirectory } from './files.js';

/**
 * An app's HTML document as the MCP Apps extension (SEP-1865) has hosts load it: one text/html
 * document in a sandboxed iframe with no server of its own behind it. So the files the entry
 * names relative to itself are put into it — scripts as inline <script>, style sheets as <style>,
 * images (and the images and fonts a style sheet's url() names) as data: URIs — and references to
 * other origins stay as written (the host allows them only when csp.resource_domains declares
 * them). A root-relative (`/x.js`) or climbing (`../`) reference is refused, as is any file the
 * confinement of files.ts refuses. The app's `config` goes in first, as JSON in
 * `<script type="application/json" id="app-config">`, ahead of the app's own elements.
 */

export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The extension's identifier in `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The whole assembled document, and how many files may be put into one. */
export const MAX_APP_DOCUMENT_BYTES = 8 * 1024 * 1024;
export const MAX_INLINED_FILES = 100;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON for inside a <script> element: `<`, `>` and `&` as \u escapes (so no `</script>` or `<!--`
 * can appear), and the two line separators JavaScript once treated as line ends. Still the same JSON.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A file's text inside a <script> or <style> element: it can neither end the element nor open an escaped comment. */
function rawTextSafe(text: string): string {
  return text.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const ATTRS = String.raw`((?:[^>"']|"[^"]*"|'[^']*')*)`;
/** Comments pass through untouched; scripts, link and img elements are looked at. */
const TOKEN = new RegExp(String.raw`<!--[\s\S]*?-->|<script\b${ATTRS}>([\s\S]*?)<\/script\s*>|<(link|img)\b${ATTRS}>`, 'gi');
const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const CSS_URL = /url\(\s*(['"]?)([^'")]+)\1\s*\)/gi;

interface Attr {
  name: string;
  value: string | undefined;
  raw: string;
}

function parseAttrs(text: string): Attr[] {
  const entities: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&lt;': '<', '&gt;': '>' };
  return [...text.matchAll(ATTR)].map((m) => {
    const value = m[2] ?? m[3] ?? m[4];
    return { name: m[1]!.toLowerCase(), value: value?.replace(/&(amp|quot|#39|lt|gt);/g, (e) => entities[e]!), raw: m[0] };
  });
}

const rebuild = (attrs: readonly Attr[], drop: readonly string[]) =>
  attrs.filter((a) => !drop.includes(a.name)).map((a) => ` ${a.raw}`).join('');

/**
 * The file a reference names, relative to the app's directory; undefined when the reference
 * is not to a file of the app (another origin, a data: URI, a fragment).
 */
function referencedFile(ref: string, fromDir: string): string | undefined {
  const trimmed = ref.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed)) return undefined;
  if (trimmed.startsWith('/') || trimmed.startsWith('\\')) {
    throw new AppFileError(`${JSON.stringify(trimmed)}: an app names its files relative to the page, not from a root`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(trimmed.replace(/[?#].*$/, ''));
  } catch {
    throw new AppFileError(`${JSON.stringify(trimmed)} is not a valid reference`);
  }
  const joined = path.posix.normalize(path.posix.join(fromDir, decoded.replace(/\\/g, '/')));
  if (joined === '..' || joined.startsWith('../') || path.posix.isAbsolute(joined)) {
    throw new AppFileError(`${JSON.stringify(trimmed)} is outside the app's directory`);
  }
  return joined;
}

/** Puts the app's `config` first in <head> (else right after <html> or the doctype, else first). */
export function injectConfig(html: string, config: Record<string, unknown>): string {
  const element = `<script type="application/json" id="app-config">${scriptSafeJson(config)}</script>`;
  for (const pattern of [/<head\b(?:[^>"']|"[^"]*"|'[^']*')*>/i, /<html\b(?:[^>"']|"[^"]*"|'[^']*')*>/i, /<!doctype[^>]*>/i]) {
    const m = pattern.exec(html);
    if (m) return `${html.slice(0, m.index + m[0].length)}${element}${html.slice(m.index + m[0].length)}`;
  }
  return `${element}${html}`;
}

/** Reads the files an assembly needs, counting them against MAX_INLINED_FILES. */
class Inliner {
  private count = 0;
  /** Bytes read so far: a style sheet naming many large files is stopped while it is read, not after. */
  private bytes = 0;
  constructor(private readonly dir: AppDirectory) {}

  async file(name: string): Promise<Buffer> {
    if (++this.count > MAX_INLINED_FILES) throw new AppFileError(`the page references more than ${MAX_INLINED_FILES} files`);
    const content = await this.dir.read(name);
    this.bytes += content.length;
    if (this.bytes > MAX_APP_DOCUMENT_BYTES) throw new AppFileError(`the assembled page is larger than ${MAX_APP_DOCUMENT_BYTES} bytes`);
    return content;
  }

  /** A data: URI of an image or font, the kinds a page or style sheet loads by URL. */
  async dataUri(name: string, kinds: readonly string[]): Promise<string> {
    const type = mime.lookup(name);
    if (!type || !kinds.some((k) => type.startsWith(k))) throw new AppFileError(`${name}: only ${kinds.join(' and ')} files can be put into the page this way`);
    return `data:${type};base64,${(await this.file(name)).toString('base64')}`;
  }

  /** A style sheet with the images and fonts it names relative to itself as data: URIs. */
  async css(name: string): Promise<string> {
    const text = (await this.file(name)).toString('utf8');
    const fromDir = path.posix.dirname(name);
    const parts: string[] = [];
    let last = 0;
    for (const m of text.matchAll(CSS_URL)) {
      const file = referencedFile(m[2]!, fromDir);
      if (file === undefined) continue;
      parts.push(text.slice(last, m.index), `url("${await this.dataUri(file, ['image/', 'font/'])}")`);
      last = m.index + m[0].length;
    }
    parts.push(text.slice(last));
    return parts.join('');
  }
}

async function replaceToken(m: RegExpExecArray, inliner: Inliner, fromDir: string): Promise<string> {
  const [whole, scriptAttrs, , tag, tagAttrs] = m;
  if (scriptAttrs !== undefined) {
    const attrs = parseAttrs(scriptAttrs);
    const src = attrs.find((a) => a.name === 'src')?.value;
    const file = src === undefined ? undefined : referencedFile(src, fromDir);
    if (file === undefined) return whole;
    const js = (await inliner.file(file)).toString('utf8');
    return `<script${rebuild(attrs, ['src', 'integrity', 'crossorigin', 'async', 'defer'])}>${rawTextSafe(js)}</script>`;
  }
  if (tag === undefined) return whole; // a comment
  const attrs = parseAttrs(tagAttrs ?? '');
  if (tag.toLowerCase() === 'link') {
    const isStyleSheet = (attrs.find((a) => a.name === 'rel')?.value ?? '').toLowerCase().split(/\s+/).includes('stylesheet');
    const href = attrs.find((a) => a.name === 'href')?.value;
    const file = isStyleSheet && href !== undefined ? referencedFile(href, fromDir) : undefined;
    if (file === undefined) return whole;
    const media = attrs.find((a) => a.name === 'media');
    return `<style${media ? ` ${media.raw}` : ''}>${rawTextSafe(await inliner.css(file))}</style>`;
  }
  const src = attrs.find((a) => a.name === 'src')?.value;
  const file = src === undefined ? undefined : referencedFile(src, fromDir);
  if (file === undefined) return whole;
  const selfClosing = /\/\s*$/.test(tagAttrs ?? '') ? ' /' : '';
  return `<img src="${escapeHtml(await inliner.dataUri(file, ['image/']))}"${rebuild(attrs, ['src', 'srcset'])}${selfClosing}>`;
}

/** The app's document: entry read, config injected, its own files put into it. */
export async function assembleAppDocument(dir: AppDirectory, entry: string, config: Record<string, unknown> | undefined): Promise<string> {
  const source = (await dir.read(entry)).toString('utf8');
  const html = config === undefined ? source : injectConfig(source, config);
  const inliner = new Inliner(dir);
  const fromDir = path.posix.dirname(entry.replace(/\\/g, '/'));
  const parts: string[] = [];
  let size = 0;
  let last = 0;
  for (const m of html.matchAll(TOKEN)) {
    const piece = html.slice(last, m.index);
    const replaced = await replaceToken(m, inliner, fromDir);
    size += Buffer.byteLength(piece) + Buffer.byteLength(replaced);
    if (size > MAX_APP_DOCUMENT_BYTES) throw new AppFileError(`the assembled page is larger than ${MAX_APP_DOCUMENT_BYTES} bytes`);
    parts.push(piece, replaced);
    last = m.index + m[0].length;
  }
  parts.push(html.slice(last));
  return parts.join('');
}
