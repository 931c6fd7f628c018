/**
 * What a repeat of a table's catalog context becomes (injection.session_dedup.mode): pure, so
 * the injection middleware decides with a mark from SessionDedup and this function alone.
 */
import type { Block } from '../blocks.js';
import type { DedupMark, DedupMode, SentExtent } from './types.js';

/**
 * Words that make a tag critical (toolkits.md 5.3 and 5.4): a tag containing one of them, in any
 * case, keeps its column in a filtered block and is repeated in a summary.
 */
export const criticalTagWords = ['pii', 'sensitive', 'quality', 'restricted', 'confidential'] as const;

export function isCriticalTag(tag: string): boolean {
  const lower = tag.toLowerCase();
  return criticalTagWords.some((word) => lower.includes(word));
}

export type Repeat = Extract<DedupMark, { first: false }>;

/**
 * The block to send for the catalog context of a call's table(s): the full block when any of its
 * tables is a first in the session (and always in mode `none`); when every one is a repeat, a
 * `metadata_reference` pointer (`reference`) or a `compact_context` summary (`summary`). `mark`
 * is one table's mark or all of a call's (SessionDedup.markSent).
 */
export function applyDedup(block: Block, mark: DedupMark | readonly DedupMark[], mode: DedupMode): Block {
  const marks = Array.isArray(mark) ? (mark as readonly DedupMark[]) : [mark as DedupMark];
  const repeats = marks.filter((m): m is Repeat => !m.first);
  if (mode === 'none' || repeats.length === 0 || repeats.length < marks.length) return block;
  return mode === 'summary' ? summaryBlock(block, repeats) : referenceBlock(repeats);
}

/** The repeat whose full block went out first: what the words point at. */
const earliest = (repeats: readonly Repeat[]): Repeat => repeats.reduce((a, b) => (b.firstSeenAt < a.firstSeenAt ? b : a));
/** The tables as the call wrote them (never the store's keys, which hold the connection too; one mark per table). */
const tablesOf = (repeats: readonly Repeat[]): string[] => repeats.map((r) => r.table);

/** The tables of the repeats sent at `extent`. */
const sentAt = (repeats: readonly Repeat[], extent: SentExtent): string[] => tablesOf(repeats.filter((r) => r.extent === extent));

/**
 * What went out earlier, table by table, in words: every column of a `full` table, the statement's
 * columns of a `filtered` one, the `additional_tables` entry of a `brief` one.
 */
function whatWasSent(repeats: readonly Repeat[]): string {
  const full = sentAt(repeats, 'full');
  const filtered = sentAt(repeats, 'filtered');
  const brief = sentAt(repeats, 'brief');
  return [
    full.length ? `full catalog metadata for ${full.join(', ')}` : '',
    filtered.length ? `catalog metadata (columns filtered to the statement) for ${filtered.join(', ')}` : '',
    brief.length ? `the additional_tables ${brief.length > 1 ? 'entries' : 'entry'} for ${brief.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
}

/** For a filtered repeat: where the columns the statement left out are. */
const otherColumns = (repeats: readonly Repeat[]): string =>
  repeats.some((r) => r.extent === 'filtered') ? ' sql_describe_table gives every column.' : '';

/** When the full block went out, in words for the agent. */
function sentEarlier(repeats: readonly Repeat[]): string {
  const when = new Date(earliest(repeats).firstSeenAt).toISOString();
  return `sent earlier in this session (${repeats.length > 1 ? 'from ' : 'at '}${when})`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * `{"metadata_reference": {tables, sent_at, note}}`: points back at the full block (for several
 * tables, at the earliest: `sent_at` is its).
 */
export function referenceBlock(repeats: readonly Repeat[]): Block {
  return {
    metadata_reference: {
      tables: tablesOf(repeats),
      sent_at: new Date(earliest(repeats).firstSeenAt).toISOString(),
      note: `${capitalised(whatWasSent(repeats))} was ${sentEarlier(repeats)}; it is not repeated.${otherColumns(repeats)}`,
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * `{"compact_context": {...}, "tables": [as written], "note"}`: what must not be forgotten about the table
 * whose full context went out earlier — its URN and domain, a deprecation, the quality score,
 * critical tags (`isCriticalTag`), the columns that are PII, sensitive or critically tagged,
 * active incidents and a failing data contract. Keys with nothing to say are left out. It reads the
 * block's `semantic_context` and `column_context` (the primary table's, toolkits.md 5.2).
 */
export function summaryBlock(block: Block, repeats: readonly Repeat[]): Block {
  const table = isObject(block.semantic_context) ? block.semantic_context : {};
  const compact: Record<string, unknown> = {};
  if (typeof table.urn === 'string') compact.urn = table.urn;
  if (isObject(table.domain) && typeof table.domain.name === 'string') compact.domain = table.domain.name;
  if (isObject(table.deprecation) && table.deprecation.deprecated === true) compact.deprecation = table.deprecation;
  if (typeof table.quality_score === 'number') compact.quality_score = table.quality_score;
  const tableTags = strings(table.tags).filter(isCriticalTag);
  if (tableTags.length) compact.critical_tags = tableTags;
  const columns = isObject(block.column_context) ? block.column_context : {};
  const criticalColumns = Object.entries(columns)
    .filter(([, c]) => isObject(c) && (c.is_pii === true || c.is_sensitive === true || strings(c.tags).some(isCriticalTag)))
    .map(([name]) => name);
  if (criticalColumns.length) compact.critical_columns = criticalColumns;
  if (typeof table.active_incidents === 'number' && table.active_incidents > 0) compact.active_incidents = table.active_incidents;
  if (isObject(table.data_contract) && table.data_contract.status === 'FAILING') compact.data_contract = table.data_contract;
  return {
    compact_context: compact,
    tables: tablesOf(repeats),
    note: `Summary only: ${whatWasSent(repeats)} was ${sentEarlier(repeats)}.${otherColumns(repeats)}`,
  };
}
