/**
 * Which entities a catalog tool's result is about (toolkits.md 5.5, 5.7): the values of `urn`/`URN`
 * keys anywhere in the JSON of its text blocks, deduplicated in first-seen order, plus the request's
 * own `urn` argument. Bounded: a result listing hundreds of entities enriches its first few only,
 * so one call cannot make the platform describe or list without limit.
 */
import type { CallToolResult } from '../mcp-tools/index.js';

export const MAX_ENRICHED_URNS = 20;

function collect(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'urn' || key === 'URN') && typeof v === 'string') out.add(v);
    else collect(v, out);
  }
}

export function resultUrns(result: CallToolResult, args: Record<string, unknown>): string[] {
  const out = new Set<string>();
  for (const block of result.content) {
    if (block.type !== 'text') continue;
    try {
      collect(JSON.parse(block.text), out);
    } catch {
      // Not JSON: a text block names no entity.
    }
  }
  if (typeof args.urn === 'string') out.add(args.urn);
  return [...out];
}

/** The `{term}` of a glossary term URN, `urn:li:glossaryTerm:{term}`. */
export function glossaryTermId(urn: string): string | undefined {
  const m = /^urn:li:glossaryTerm:(.+)$/.exec(urn);
  return m?.[1];
}
