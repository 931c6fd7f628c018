/**
 * Catalog results get SQL availability and storage information (toolkits.md 5.5, 5.7), then resource
 * links (`resources.enabled`). The entities are those the result names (result-urns.ts), bounded.
 */
import type { CallToolResult } from '../mcp-tools/index.js';
import type { ResourceLinkBlock } from './append.js';
import { queryContextBlock, storageContextBlock, type Block } from './blocks.js';
import type { QueryProvider } from './query-provider.js';
import { resourceLinks } from './resources.js';
import { MAX_ENRICHED_URNS, resultUrns } from './result-urns.js';
import type { StorageProvider } from './storage-provider.js';
import type { Availability, StorageInfo } from './types.js';
import { isDatasetUrn } from './urn.js';

export interface CatalogFamilyDeps {
  /** Present when `injection.datahub_query_enrichment` and a query provider are on and the caller reaches SQL. */
  query?: QueryProvider;
  /** Present when `injection.datahub_storage_enrichment` and a storage provider are on and the caller reaches objstore. */
  storage?: StorageProvider;
  /** Present when `resources.enabled`: the SQL platform of `schema://` links, and whether `availability://` is served. */
  links?: { platform: string; availability: boolean };
}

export async function catalogFamilyBlocks(
  deps: CatalogFamilyDeps,
  result: CallToolResult,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ blocks: Block[]; links: ResourceLinkBlock[] }> {
  const urns = resultUrns(result, args).slice(0, MAX_ENRICHED_URNS);
  const datasets = urns.filter(isDatasetUrn);
  const s3 = datasets.filter((u) => u.includes('dataPlatform:s3'));
  const [availability, storage] = await Promise.all([
    deps.query ? Promise.all(datasets.map(async (u) => [u, await deps.query!.availability(u, signal)] as [string, Availability])) : [],
    deps.storage ? Promise.all(s3.map(async (u) => [u, await deps.storage!.storage(u, signal)] as [string, StorageInfo])) : [],
  ]);
  const blocks: Block[] = [];
  if (availability.length) blocks.push(queryContextBlock(new Map(availability)));
  if (storage.length) blocks.push(storageContextBlock(new Map(storage)));
  return { blocks, links: deps.links ? resourceLinks(urns, deps.links) : [] };
}
