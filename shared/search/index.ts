/**
 * Search over managed resources (spec document 2: "Search indexing", "Index rules", "Reading"):
 * the index rules, the indexer of one resource, folder entries, lexical search, and the MCP
 * `search` tool. Text extraction lives in extract/.
 */
export { indexModeFor, isTableOfValues, ruleMatches, rulesFingerprint, MAX_CONTENT_INDEX_BYTES, type IndexMode, type IndexRule, type IndexSubject, type IndexVersion } from './rules.js';
export { indexResource, indexerActor, type IndexerDeps, type IndexOutcome } from './index-resource.js';
export { laggingResources, MAX_INDEXED_CHARS, versionOrigin } from './index-store.js';
export { tableColumns } from './index-details.js';
export { refreshFolderEntries, FOLDER_ENTRY_NAMES } from './folders.js';
export {
  searchLexical,
  contentsQuery,
  COMMON_TERM_SHARE,
  CONTENTS_RANK_CAP,
  shortlistSize,
  hitUrl,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  MAX_QUERY_CHARS,
  FOLDER_ID_PREFIX,
  type SearchHit,
  type ResourceHit,
  type FolderHit,
  type SearchPage,
} from './lexical.js';
export { searchTool, type SearchToolOptions } from './tool-search.js';
export { attachedByFile, combineAttachedTables, type AttachedTable, type AttachedTables } from './attached-tables.js';
export { fetchTool, FETCH_INLINE_BYTES, type FetchToolOptions } from './tool-fetch.js';
export { createEmbedder, embeddingText, embedResource, EmbeddingError, openEmbeddings, unembeddedResources, MAX_EMBEDDED_CHARS, type Embedder, type EmbedOutcome, type EmbeddingsConfig } from './embeddings/index.js';
export { fuseRankings, RRF_K, type Fused } from './hybrid-fusion.js';
export { searchResources, semanticRanking, MAX_FUSION_DEPTH, type SearchDeps } from './hybrid.js';
