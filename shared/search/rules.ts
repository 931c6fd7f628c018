/**
 * How search indexes one resource (spec document 2, "Index rules" and the search setting): a pure
 * function of the resource, its head version and the deployment's `resources.index` rules.
 *
 * - An explicit search setting on the file wins: Not indexed, Details only, Contents.
 * - `default`: the first rule whose every given condition matches decides; with none matching, a
 *   table of values (CSV, TSV, newline-delimited JSON) is indexed on its details, everything else
 *   on its contents.
 * - Whatever was decided, a file over 8 MB is indexed on metadata alone (spec limit).
 * - A row decided under other rules is decided again by the sweep (rulesFingerprint).
 */
import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import type { PlatformConfig } from '../config/index.js';
import { bareMediaType, extensionOf, type LibraryKind, type SearchSetting, type WriteOrigin } from '../resources/index.js';

/** What the indexer records for a resource (migrations/0021). */
export type IndexMode = 'not_indexed' | 'metadata' | 'details' | 'contents';

export type IndexRule = PlatformConfig['resources']['index'][number];

/** Largest file indexed on more than its metadata (spec: "metadata only above 8 MB"). */
export const MAX_CONTENT_INDEX_BYTES = 8 * 1024 * 1024;

/** The resource as the rules see it. */
export interface IndexSubject {
  search_setting: SearchSetting;
  library: { kind: LibraryKind; key: string };
  /** Folder path inside the library ('' at its root). */
  path: string;
  file_name: string;
  content_type: string;
}

/** The head version as the rules see it. */
export interface IndexVersion {
  size: number;
  /** Where the write came from; undefined when not recorded (such a file matches no origin rule). */
  origin: WriteOrigin | undefined;
}

/** Media types of tables of values (parameters removed). */
const tableTypes = new Set(['text/csv', 'text/tab-separated-values', 'application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines']);
const tableExtensions = new Set(['csv', 'tsv', 'ndjson', 'jsonl']);

/** A table of values: CSV, TSV or newline-delimited JSON, by media type or extension. */
export function isTableOfValues(contentType: string, fileName: string): boolean {
  return tableTypes.has(bareMediaType(contentType)) || tableExtensions.has(extensionOf(fileName));
}

/**
 * What identifies a set of rules: the first 16 hex digits of the SHA-256 of their JSON. An index row
 * records it, so the sweep finds rows decided under other rules (order matters: first match wins).
 */
export function rulesFingerprint(rules: readonly IndexRule[]): string {
  return createHash('sha256').update(JSON.stringify(rules)).digest('hex').slice(0, 16);
}

export function indexModeFor(resource: IndexSubject, version: IndexVersion, rules: readonly IndexRule[]): IndexMode {
  const decided = decide(resource, version, rules);
  if (decided === 'not_indexed') return 'not_indexed';
  return version.size > MAX_CONTENT_INDEX_BYTES ? 'metadata' : decided;
}

function decide(resource: IndexSubject, version: IndexVersion, rules: readonly IndexRule[]): IndexMode {
  if (resource.search_setting !== 'default') return modeOfSetting(resource.search_setting);
  const rule = rules.find((r) => ruleMatches(r, resource, version));
  if (rule) return modeOfSetting(rule.index);
  return isTableOfValues(resource.content_type, resource.file_name) ? 'details' : 'contents';
}

function modeOfSetting(setting: Exclude<SearchSetting, 'default'>): IndexMode {
  return setting === 'details_only' ? 'details' : setting;
}

/** Every condition the rule gives holds (a rule with none matches everything). */
export function ruleMatches(rule: IndexRule, resource: IndexSubject, version: IndexVersion): boolean {
  if (rule.folder !== undefined && !folderMatcher(rule.folder)(resource.path)) return false;
  if (rule.types !== undefined && !rule.types.some((t) => typeMatches(t, resource.content_type, resource.file_name))) return false;
  if (rule.min_bytes !== undefined && version.size < rule.min_bytes) return false;
  if (rule.max_bytes !== undefined && version.size > rule.max_bytes) return false;
  if (rule.library !== undefined && !rule.library.some((l) => libraryMatches(l, resource.library))) return false;
  if (rule.origin !== undefined && (version.origin === undefined || !rule.origin.includes(version.origin))) return false;
  return true;
}

const folderMatchers = new Map<string, (path: string) => boolean>();

/** A glob over the folder path: `templates/**` is templates and everything beneath, `*` one top-level folder. */
function folderMatcher(glob: string): (path: string) => boolean {
  let m = folderMatchers.get(glob);
  if (!m) {
    const normalized = glob.trim().replace(/^\/+/, '').replace(/\/+$/, '');
    m = normalized === '' ? (path) => path === '' : picomatch(normalized, { dot: true });
    folderMatchers.set(glob, m);
  }
  return m;
}

/** `.csv` (an extension), `text/*` (a family), or a whole media type; case-insensitive. */
function typeMatches(pattern: string, contentType: string, fileName: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (p.startsWith('.')) return extensionOf(fileName) === p.slice(1);
  const type = bareMediaType(contentType);
  if (p.endsWith('/*')) return type.startsWith(p.slice(0, -1));
  return type === p;
}

/** `person`, `persona`, `global` (a kind of library), or `persona:<name>` (one persona's library). */
function libraryMatches(pattern: string, library: IndexSubject['library']): boolean {
  const colon = pattern.indexOf(':');
  if (colon < 0) return pattern === library.kind;
  return pattern.slice(0, colon) === library.kind && pattern.slice(colon + 1) === library.key;
}
