/**
 * Catalog text is written by whoever may edit the catalog and read by an agent as context, so it is
 * treated as untrusted before it goes into a block (toolkits.md 5.1): control characters removed,
 * common prompt-injection phrases replaced by `[REMOVED]`, strings over 2,000 characters cut and
 * suffixed `...`; tags longer than 100 characters or not matching `^[a-zA-Z0-9][a-zA-Z0-9_-]*$` dropped.
 */
import type { ColumnContext, GlossaryTermRef } from './types.js';

const MAX_TEXT = 2000;
const MAX_TAG = 100;

const controlChars = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Phrases that try to turn catalog text into instructions to the agent. */
const injectionPhrases = [
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:instructions|prompts|rules|context)\b/gi,
  /\byou\s+are\s+now\b/gi,
  /\b(?:new|updated)\s+(?:system\s+)?instructions\s*:/gi,
  /\bsystem\s+prompt\b/gi,
  /<\/?\s*(?:system|assistant|instructions?)\s*>/gi,
];

export function sanitizeText(text: string): string {
  let out = text.replace(controlChars, '');
  for (const phrase of injectionPhrases) out = out.replace(phrase, '[REMOVED]');
  return out.length > MAX_TEXT ? `${out.slice(0, MAX_TEXT)}...` : out;
}

const tagPattern = /^[a-zA-Z0-9][a-zA-Z0-9_-]*$/;

/** The tags that may go into a block, in order, without duplicates. */
export function sanitizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.filter((t) => t.length <= MAX_TAG && tagPattern.test(t)))];
}

export const sanitizeTerms = (list: readonly GlossaryTermRef[] | undefined): GlossaryTermRef[] =>
  (list ?? []).map((t) => ({ urn: t.urn, name: sanitizeText(t.name), ...(t.description ? { description: sanitizeText(t.description) } : {}) }));

/** A column as it may go into a block (inherited fields come from other datasets' text, so they pass here too). */
export function sanitizeColumn<C extends ColumnContext>(c: C): C {
  return {
    ...c,
    ...(c.description ? { description: sanitizeText(c.description) } : {}),
    tags: sanitizeTags(c.tags),
    glossary_terms: sanitizeTerms(c.glossary_terms),
  };
}
