/**
 * Object-store results get catalog context by location (toolkits.md 5.6): for a tool called with a
 * `bucket`, the catalog's `s3` datasets found for `bucket` or `bucket/prefix` (prefix: the `prefix`
 * argument, else the key's folder), at most 5, each with its context; hits the catalog has no
 * context for are skipped. We read each hit's context by its own URN (the anchor rebuilt a SQL URN
 * from it, which rarely resolved: toolkits.md 7).
 */
import { objstoreContextBlock, type Block } from './blocks.js';
import type { SemanticProvider } from './semantic-provider.js';

const HITS = 5;

export function objstoreLocation(args: Record<string, unknown>): string | undefined {
  const bucket = typeof args.bucket === 'string' && args.bucket !== '' ? args.bucket : undefined;
  if (!bucket) return undefined;
  const fromKey = typeof args.key === 'string' && args.key.includes('/') ? args.key.slice(0, args.key.lastIndexOf('/')) : undefined;
  const prefix = (typeof args.prefix === 'string' && args.prefix !== '' ? args.prefix : fromKey)?.replace(/\/+$/, '');
  return prefix ? `${bucket}/${prefix}` : bucket;
}

export async function objstoreFamilyBlocks(semantic: SemanticProvider, args: Record<string, unknown>, signal: AbortSignal): Promise<Block[]> {
  const location = objstoreLocation(args);
  if (!location) return [];
  const hits = await semantic.searchDatasets(location, { platform: 's3', limit: HITS }, signal);
  const matches = await Promise.all(hits.slice(0, HITS).map(async (hit) => ({ hit, ctx: await semantic.datasetContext(hit.urn, signal).catch(() => undefined) })));
  const found = matches.filter((m) => m.ctx !== undefined) as Array<{ hit: (typeof hits)[number]; ctx: NonNullable<(typeof matches)[number]['ctx']> }>;
  return found.length ? [objstoreContextBlock(location, found)] : [];
}
