/**
 * Cross-injection as a tool middleware (toolkits.md 5.1): runs after the handler, innermost, so
 * gating and elicitation have decided before and audit sees the enriched result. Skipped for error
 * results, managed-script callers, `*_export` tools and tools outside the three families. A slow
 * catalog never holds a result back: the whole enrichment has one deadline (`semantic.lineage.timeout`),
 * after which the result goes out without the blocks and an `enrichment_note` says so. Session
 * de-duplication marks what is sent only after that deadline, as the blocks are attached, and
 * never for a cancelled request. An enrichment that fails adds nothing; the tool's result is never
 * lost to it.
 */
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { globMatcher, type CallToolResult, type ToolInvocation, type ToolMiddleware } from '../mcp-tools/index.js';
import type { SqlConnection } from '../sql/index.js';
import type { Family } from './access.js';
import { appendBlocks, type ResourceLinkBlock } from './append.js';
import { catalogCheckHint, enrichmentTimeoutNote } from './blocks.js';
import { catalogFamilyBlocks } from './catalog-family.js';
import { objstoreFamilyBlocks } from './objstore-family.js';
import type { QueryProvider } from './query-provider.js';
import type { SemanticProvider } from './semantic-provider.js';
import { deduplicateContext, sqlFamilyBlocks, type FamilyBlocks, type InheritColumns } from './sql-family.js';
import type { SessionDedup } from './dedup/index.js';
import type { StorageProvider } from './storage-provider.js';

export type EnrichmentConfig = Pick<PlatformConfig, 'injection' | 'tuning' | 'resources' | 'semantic' | 'workflow'>;

export interface EnrichmentOptions {
  config: EnrichmentConfig;
  semantic?: SemanticProvider;
  query?: QueryProvider;
  storage?: StorageProvider;
  /** The SQL connection a call names (or the default); throws for an unknown name. */
  sqlConnection?: (name?: string) => SqlConnection;
  inherit?: InheritColumns;
  dedup?: SessionDedup;
  /** Milliseconds since the epoch (de-duplication entries); Date.now by default. */
  now?: () => number;
  /** Whether the caller may reach a family's data (access.ts). */
  reach: (family: Family, caller: CallerContext) => boolean;
  log?: { warn(obj: object, msg: string): void };
}

const families: ReadonlyArray<[string, Family]> = [
  ['sql_', 'sql'],
  ['catalog_', 'catalog'],
  ['objstore_', 'objstore'],
];
const familyOf = (tool: string): Family | undefined => families.find(([prefix]) => tool.startsWith(prefix))?.[1];

class Timeout {}

/** `work` under a deadline that also follows the call's own signal; `timedOut` when the deadline came first. */
async function withinDeadline<T>(ms: number, parent: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<{ value: T } | { timedOut: true }> {
  const controller = new AbortController();
  const onParent = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onParent, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Timeout>((resolve) => {
    timer = setTimeout(() => resolve(new Timeout()), ms);
  });
  try {
    const outcome = await Promise.race([work(controller.signal), deadline]);
    if (outcome instanceof Timeout) {
      controller.abort(new Error('enrichment deadline'));
      return { timedOut: true };
    }
    return { value: outcome };
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onParent);
  }
}

export function enrichmentMiddleware(opts: EnrichmentOptions): ToolMiddleware {
  const { config, semantic } = opts;
  const { injection } = config;
  const rules = config.tuning.rules;
  const timeoutMs = config.semantic.lineage.timeout;
  const isQueryTool = globMatcher(config.workflow.query_tools);
  // The static hint stands in for the workflow tracker when there is none (document 1; toolkits.md 6.2).
  const hintOn = rules.require_datahub_check && !config.workflow.require_discovery_before_query;
  const sqlSettings = {
    context: injection.trino_semantic_enrichment,
    columnFiltering: injection.column_context_filtering,
    warnOnDeprecated: rules.warn_on_deprecated,
    qualityThreshold: rules.quality_threshold,
  };

  async function familyBlocks(family: Family, call: ToolInvocation, result: CallToolResult, signal: AbortSignal): Promise<FamilyBlocks & { links: ResourceLinkBlock[] }> {
    const { args, ctx } = call;
    const caller = ctx.caller;
    if (family === 'sql') {
      if (!semantic || !opts.sqlConnection || !opts.reach('catalog', caller)) return { blocks: [], links: [] };
      let connection: SqlConnection;
      try {
        connection = opts.sqlConnection(typeof args.connection === 'string' ? args.connection : undefined);
      } catch {
        return { blocks: [], links: [] };
      }
      const out = await sqlFamilyBlocks({ settings: sqlSettings, semantic, ...(opts.inherit ? { inherit: opts.inherit } : {}) }, { connection, args, signal });
      return { ...out, links: [] };
    }
    if (family === 'catalog') {
      const query = injection.datahub_query_enrichment && opts.query && opts.reach('sql', caller) ? opts.query : undefined;
      const storage = injection.datahub_storage_enrichment && opts.storage && opts.reach('objstore', caller) ? opts.storage : undefined;
      const links = config.resources.enabled && semantic ? { platform: semantic.platform, availability: opts.query !== undefined } : undefined;
      if (!query && !storage && !links) return { blocks: [], links: [] };
      return catalogFamilyBlocks({ ...(query ? { query } : {}), ...(storage ? { storage } : {}), ...(links ? { links } : {}) }, result, args, signal);
    }
    if (!injection.s3_semantic_enrichment || !semantic || !opts.reach('catalog', caller)) return { blocks: [], links: [] };
    return { blocks: await objstoreFamilyBlocks(semantic, args, signal), links: [] };
  }

  return async (call, next) => {
    const result = await next();
    const name = call.tool.name;
    const family = familyOf(name);
    if (result.isError || !family || name.endsWith('_export') || call.ctx.caller.authType === 'script') return result;
    const hint = family === 'sql' && hintOn && isQueryTool(name) ? [catalogCheckHint()] : [];
    let outcome;
    try {
      outcome = await withinDeadline(timeoutMs, call.ctx.signal, (signal) => familyBlocks(family, call, result, signal));
    } catch (error) {
      opts.log?.warn({ err: error, tool: name }, 'enrichment failed; result sent without it');
      return appendBlocks(result, hint);
    }
    if ('timedOut' in outcome) return appendBlocks(result, [enrichmentTimeoutNote(family, timeoutMs), ...hint]);
    const { links, ...found } = outcome.value;
    const sessionId = call.ctx.sessionId;
    // The attach step: nothing is awaited between marking what goes out and appending it. A
    // cancelled request's result never reaches the agent, so it marks nothing.
    const { dedup } = opts;
    const blocks = dedup && sessionId && !call.ctx.signal.aborted ? await deduplicateContext(found, dedup, sessionId, (opts.now ?? Date.now)()) : found.blocks;
    return appendBlocks(result, [...blocks, ...hint], links);
  };
}
