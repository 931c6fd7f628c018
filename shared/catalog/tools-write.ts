/**
 * catalog_create, catalog_update, catalog_delete by `what` (toolkits.md 2.3–2.4). Registered only
 * when some catalog instance is writable; a call aimed at a read-only instance is refused before
 * any request. Answers: `{urn, what, action[, target_urn]}`.
 */
import { z } from 'zod';
import { defineTool, type ToolCallContext, type ToolDefinition } from '../mcp-tools/index.js';
import { CatalogError } from './errors.js';
import type { CatalogConnections } from './connections.js';
import { answer } from './tool-results.js';
import { connectionArg } from './tools.js';
import { createPlan, createWhats, deletePlan, deleteWhats, updatePlan, updateWhats, type WriteArgs, type WritePlan } from './writes.js';

const urns = (what: string) => z.array(z.string()).optional().describe(what);
const text = (what: string) => z.string().optional().describe(what);

const createInput = z.object({
  what: z.enum(createWhats).describe('What to create'),
  name: text('Name (tag, domain, glossary_term, data_product, application); title (document, incident); display name (structured_property); query name'),
  description: text('Description; the body text of a document'),
  parent_node: text('glossary_term: parent glossary node URN'),
  domain_urn: text('data_product: the domain URN (required)'),
  status: text('document: PUBLISHED (default) or UNPUBLISHED'),
  sub_type: text('document: sub-type'),
  related_assets: urns('document: related asset URNs'),
  global_context: z.boolean().optional().describe('document: show in global context (default true)'),
  value: text('query: the SQL statement (required)'),
  language: text('query: language (default SQL)'),
  dataset_urns: urns('query: datasets it is about; data_contract: the dataset (first one used)'),
  entity_urns: urns('incident: affected entity URNs (required)'),
  incident_type: text('incident: OPERATIONAL, FRESHNESS, VOLUME, FIELD, SQL, DATA_SCHEMA or CUSTOM (required)'),
  priority: text('incident: LOW, MEDIUM, HIGH or CRITICAL'),
  qualified_name: text('structured_property: qualified name (required)'),
  value_type: text('structured_property: string, number, date, urn (or a data type URN) (required)'),
  entity_types: urns('structured_property: entity types it applies to, e.g. dataset (required)'),
  cardinality: text('structured_property: SINGLE or MULTIPLE'),
  schema_assertions: urns('data_contract: schema assertion URNs'),
  freshness_assertions: urns('data_contract: freshness assertion URNs'),
  data_quality_assertions: urns('data_contract: data quality assertion URNs'),
  connection: connectionArg,
});

/** `{property_urn, values}`, also accepting the anchor's Go spelling (`PropertyURN`, `Values`) in any case. */
const propertyValue = z.preprocess(
  (v) => (v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toLowerCase().replace(/_/g, '') === 'propertyurn' ? 'property_urn' : k.toLowerCase(), x])) : v),
  z.object({ property_urn: z.string().min(1), values: z.array(z.union([z.string(), z.number()])) }),
);

const updateInput = z.object({
  what: z.enum(updateWhats).describe('What to change'),
  urn: z.string().min(1).describe('The entity to change'),
  action: text('add/remove (tag, glossary_term, link, owner); set/remove (domain, structured_properties; default set)'),
  value: text('The new description; a tag/term URN; a link label; a status, sub-type or SQL statement; an incident message'),
  description: text('Description (same as value for description and column_description)'),
  target_urn: text('Tag, glossary term, owner or domain URN'),
  url: text('link: the URL'),
  field_path: text('column_description (required), tag, glossary_term: the column'),
  ownership_type: text('owner: ownership type (default TECHNICAL_OWNER) or an ownership type URN'),
  properties: z.array(propertyValue).optional().describe('structured_properties set: [{property_urn, values}]'),
  property_urns: urns('structured_properties remove: property URNs'),
  custom_properties: z.record(z.string(), z.string()).optional().describe('custom_properties: not supported over GraphQL'),
  property_keys: urns('custom_properties remove: not supported over GraphQL'),
  name: text('Name or title (structured_property, incident, query)'),
  language: text('query: language (default SQL)'),
  dataset_urns: urns('query: datasets it is about'),
  priority: text('incident: LOW, MEDIUM, HIGH or CRITICAL'),
  state: text('incident_status: ACTIVE or RESOLVED (required)'),
  title: text('document_contents: title'),
  text: text('document_contents: body text'),
  entity_urns: urns('document_related_entities: related asset URNs'),
  schema_assertions: urns('data_contract: schema assertion URNs'),
  freshness_assertions: urns('data_contract: freshness assertion URNs'),
  data_quality_assertions: urns('data_contract: data quality assertion URNs'),
  connection: connectionArg,
});

const deleteInput = z.object({
  what: z.enum(deleteWhats).describe('What to delete (glossary_entity: a glossary term or node)'),
  urn: z.string().min(1).describe('The entity to delete'),
  connection: connectionArg,
});

const verb = { create: 'Create', update: 'Update', delete: 'Delete' } as const;

export function catalogWriteTools(catalog: CatalogConnections, descriptions: Readonly<Record<string, string>>): ToolDefinition[] {
  const describe = (name: string, builtIn: string) => descriptions[name] ?? builtIn;

  async function write(kind: keyof typeof verb, args: WriteArgs & { connection?: string | undefined }, ctx: ToolCallContext, plan: (a: WriteArgs) => WritePlan) {
    return answer(
      ctx.log,
      async () => {
        const c = catalog.connection(args.connection);
        if (c.config.read_only) throw new CatalogError('unsupported', `write disabled: catalog connection "${c.name}" is read-only`);
        const p = plan(args);
        const data = await c.client.mutate(p.operation, p.variables, { signal: ctx.signal });
        return { urn: p.resultUrn(data), what: p.what, action: p.action, ...(p.targetUrn ? { target_urn: p.targetUrn } : {}) };
      },
      `${verb[kind]} ${args.what} failed: `,
    );
  }

  return [
    defineTool({
      name: 'catalog_create',
      toolkit: 'catalog',
      title: 'Create a catalog entity',
      description: describe(
        'catalog_create',
        'Create a tag, domain, glossary_term, data_product, document, application, query, incident, structured_property or data_contract in the catalog. Required fields depend on what.',
      ),
      input: createInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      handler: (args, ctx) => write('create', args as WriteArgs, ctx, createPlan),
    }),
    defineTool({
      name: 'catalog_update',
      toolkit: 'catalog',
      title: 'Change catalog metadata',
      description: describe(
        'catalog_update',
        'Change metadata on a catalog entity: description, column_description, tag, glossary_term, link, owner, domain, structured_properties, structured_property, incident_status, incident, query, document_* or data_contract.',
      ),
      input: updateInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      handler: (args, ctx) => write('update', args as WriteArgs, ctx, updatePlan),
    }),
    defineTool({
      name: 'catalog_delete',
      toolkit: 'catalog',
      title: 'Delete a catalog entity',
      description: describe('catalog_delete', 'Delete a query, tag, domain, glossary term or node (glossary_entity), data product, application, document or structured property.'),
      input: deleteInput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      handler: (args, ctx) => write('delete', args, ctx, deletePlan),
    }),
  ];
}
