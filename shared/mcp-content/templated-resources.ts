import type { ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../identity/index.js';

/**
 * Resources generated on read from a URI template (the enrichment resources of `resources.enabled`:
 * `schema://…`, `glossary://…`, `availability://…`). Listed in resources/templates/list, read by URI;
 * a URI the source does not know, or one the caller may not read, throws ResourceNotFoundError.
 */
export interface TemplatedResourceSource {
  templates: readonly ResourceTemplate[];
  handles(uri: string): boolean;
  read(uri: string, caller: CallerContext, signal: AbortSignal): Promise<{ uri: string; mimeType: string; text: string }>;
}
