/**
 * What a repeat of a table's catalog context becomes (injection.session_dedup.mode): pure, so
 * the injection middleware decides with a mark from SessionDedup and this function alone.
 */
import type { Block } from '../blocks.js';
import { criticalTags } from '../columns.js';
import type { DedupMark, DedupMode } from './types.js';

type Repeat = Extract<DedupMark, { first: false }>;

/**
 * The block to send for a table's context: the full block the first time in a session (and
 * always in mode `none`); for a repeat, a `metadata_reference` pointer (`reference`) or a
 * `compact_context` summary (`summary`).
 */
export function applyDedup(block: Block, mark: DedupMark, mode: DedupMode): Block {
  if (mark.first || mode === 'none') return block;
  return mode === 'summary' ? summaryBlock(block, mark) : referenceBlock(mark);
}

/** Where and when the full block went out, in words for the agent. */
function sentEarlier(mark: Repeat): string {
  const when = new Date(mark.firstSeenAt).toISOString();
  return `sent earlier in this session (at ${when}${mark.reference ? `, with ${mark.reference}` : ''})`;
}

/** `{"metadata_reference": {tables, sent_at, reference?, note}}`: points back at the full block. */
export function referenceBlock(mark: Repeat): Block {
  return {
    metadata_reference: {
      tables: [mark.key],
      sent_at: new Date(mark.firstSeenAt).toISOString(),
      ...(mark.reference ? { reference: mark.reference } : {}),
      note: `Full catalog metadata for ${mark.key} was ${sentEarlier(mark)}; it is not repeated.`,
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * `{"compact_context": {...}, "tables": [key], "note"}`: what must not be forgotten about a table
 * whose full context went out earlier — its URN and domain, a deprecation, the quality score,
 * critical tags (columns.ts `criticalTags`: containing pii, sensitive, quality, restricted or
 * confidential), the columns that are PII, sensitive or critically tagged,
 * active incidents and a failing data contract. Keys with nothing to say are left out.
 */
export function summaryBlock(block: Block, mark: Repeat): Block {
  const table = isObject(block.semantic_context) ? block.semantic_context : {};
  const compact: Record<string, unknown> = {};
  if (typeof table.urn === 'string') compact.urn = table.urn;
  if (isObject(table.domain) && typeof table.domain.name === 'string') compact.domain = table.domain.name;
  if (isObject(table.deprecation) && table.deprecation.deprecated === true) compact.deprecation = table.deprecation;
  if (typeof table.quality_score === 'number') compact.quality_score = table.quality_score;
  const tableTags = criticalTags(strings(table.tags));
  if (tableTags.length) compact.critical_tags = tableTags;
  const columns = isObject(block.column_context) ? block.column_context : {};
  const criticalColumns = Object.entries(columns)
    .filter(([, c]) => isObject(c) && (c.is_pii === true || c.is_sensitive === true || criticalTags(strings(c.tags)).length > 0))
    .map(([name]) => name);
  if (criticalColumns.length) compact.critical_columns = criticalColumns;
  if (typeof table.active_incidents === 'number' && table.active_incidents > 0) compact.active_incidents = table.active_incidents;
  if (isObject(table.data_contract) && table.data_contract.status === 'FAILING') compact.data_contract = table.data_contract;
  return {
    compact_context: compact,
    tables: [mark.key],
    note: `Summary only: the full catalog metadata for ${mark.key} was ${sentEarlier(mark)}.`,
  };
}
