/**
 * `resources.enabled` (document 1; toolkits.md 5.5 step 5): catalog tool results carry resource links
 * `schema://{catalog}.{schema}/{table}`, `availability://{catalog}.{schema}/{table}` and
 * `glossary://{term}`, and resources/read serves them from the providers. The names in the URIs are
 * the catalog's (the dataset name of the URN); each part is percent-encoded.
 */
import type { ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { CallerContext } from '../identity/index.js';
import { ResourceNotFoundError, type TemplatedResourceSource } from '../mcp-content/index.js';
import type { ResourceLinkBlock } from './append.js';
import type { QueryProvider } from './query-provider.js';
import { glossaryTermId } from './result-urns.js';
import type { SemanticProvider } from './semantic-provider.js';
import type { Family } from './access.js';
import { datasetUrn, parseDatasetUrn, qualifiedName, splitTableName } from './urn.js';
import type { QualifiedTable } from './types.js';

const JSON_MIME = 'application/json';

const tablePath = (t: QualifiedTable) => `${encodeURIComponent(t.catalog)}.${encodeURIComponent(t.schema)}/${encodeURIComponent(t.table)}`;

/** Links for the entities of a catalog result: datasets of the SQL platform and glossary terms, deduplicated by URI. */
export function resourceLinks(urns: readonly string[], opts: { platform: string; availability: boolean }): ResourceLinkBlock[] {
  const links = new Map<string, ResourceLinkBlock>();
  const add = (uri: string, name: string, description: string) => {
    if (!links.has(uri)) links.set(uri, { type: 'resource_link', uri, name, description, mimeType: JSON_MIME });
  };
  for (const urn of urns) {
    const term = glossaryTermId(urn);
    if (term) {
      add(`glossary://${encodeURIComponent(term)}`, `Glossary term: ${term}`, 'The glossary term: definition, parent node and related terms.');
      continue;
    }
    const parsed = parseDatasetUrn(urn);
    const table = parsed?.platform === opts.platform ? splitTableName(parsed.name) : undefined;
    if (!table) continue;
    const name = qualifiedName(table);
    add(`schema://${tablePath(table)}`, `Schema: ${name}`, 'Columns of the table with their descriptions, tags and glossary terms from the catalog.');
    if (opts.availability) add(`availability://${tablePath(table)}`, `Availability: ${name}`, 'Whether the table can be queried, on which connection, and a column preview.');
  }
  return [...links.values()];
}

export const enrichmentResourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: 'schema://{catalog}.{schema}/{table}',
    name: 'catalog-schema',
    title: 'Catalog schema of a table',
    description: 'Columns of a catalog dataset with their descriptions, tags and glossary terms.',
    mimeType: JSON_MIME,
  },
  {
    uriTemplate: 'availability://{catalog}.{schema}/{table}',
    name: 'query-availability',
    title: 'Query availability of a table',
    description: 'Whether a catalog dataset can be queried with the sql_* tools, on which connection, with a column preview.',
    mimeType: JSON_MIME,
  },
  {
    uriTemplate: 'glossary://{term}',
    name: 'glossary-term',
    title: 'Glossary term',
    description: 'A glossary term of the catalog: its definition, parent node and related terms.',
    mimeType: JSON_MIME,
  },
];

const tableUri = /^(schema|availability):\/\/([^./]+)\.([^./]+)\/([^/]+)$/;
const glossaryUri = /^glossary:\/\/([^/]+)$/;

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ResourceNotFoundError('malformed resource URI');
  }
}

export function enrichmentResources(opts: {
  semantic: SemanticProvider;
  query?: QueryProvider;
  /** Whether the caller may reach a family's data (access.ts). */
  reach: (family: Family, caller: CallerContext) => boolean;
}): TemplatedResourceSource {
  const { semantic, query } = opts;
  const notFound = (uri: string) => new ResourceNotFoundError(`resource not found: ${uri}`);
  const json = (uri: string, value: unknown) => ({ uri, mimeType: JSON_MIME, text: JSON.stringify(value) });
  return {
    templates: enrichmentResourceTemplates.filter((t) => query || t.name !== 'query-availability'),
    handles: (uri) => tableUri.test(uri) || glossaryUri.test(uri),
    async read(uri, caller, signal) {
      const term = glossaryUri.exec(uri);
      if (term) {
        if (!opts.reach('catalog', caller)) throw notFound(uri);
        const found = await semantic.glossaryTerm(`urn:li:glossaryTerm:${decode(term[1]!)}`, signal);
        if (!found) throw notFound(uri);
        return json(uri, found);
      }
      const m = tableUri.exec(uri);
      if (!m) throw notFound(uri);
      const table = { catalog: decode(m[2]!), schema: decode(m[3]!), table: decode(m[4]!) };
      const urn = datasetUrn(semantic.platform, qualifiedName(table));
      if (m[1] === 'availability') {
        if (!query || !opts.reach('sql', caller)) throw notFound(uri);
        return json(uri, { urn, ...(await query.availability(urn, signal)) });
      }
      if (!opts.reach('catalog', caller)) throw notFound(uri);
      const ctx = await semantic.datasetContext(urn, signal);
      if (!ctx) throw notFound(uri);
      const { columns, ...table_ } = ctx;
      return json(uri, { ...table_, name: qualifiedName(table), columns });
    },
  };
}
