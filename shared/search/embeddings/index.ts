/**
 * Embeddings of managed resources for semantic search (resources.search.embeddings): the provider
 * client, the vector store, and the activity that embeds one resource.
 */
export { createEmbedder, EmbeddingError, type Embedder, type EmbedderDeps, type EmbeddingsConfig } from './client.js';
export { embeddingText, embedResource, MAX_EMBEDDED_CHARS, openEmbeddings, unembeddedResources, vectorLiteral, vectorStoreExists, type EmbedOutcome } from './store.js';
