/**
 * catalog_create / catalog_update / catalog_delete by `what` (toolkits.md 2.3–2.4) as pure plans:
 * which mutation, which variables, and the answer's shape. Missing inputs are refused before any
 * request, with the anchor's messages (`<field> parameter is required`, `invalid what value: <x>`).
 * Every change goes through DataHub's GraphQL mutations (the anchor's REST aspect writes for
 * descriptions, tags, terms and links have GraphQL equivalents); `custom_properties`, which has
 * none, is refused as unsupported.
 */
import { CatalogError } from './errors.js';
import type { Gql } from './mapping.js';
import * as ops from './operations/index.js';
import type { Operation } from './operations/index.js';

export const createWhats = ['tag', 'domain', 'glossary_term', 'data_product', 'document', 'application', 'query', 'incident', 'structured_property', 'data_contract'] as const;
export const updateWhats = [
  'description',
  'column_description',
  'tag',
  'glossary_term',
  'link',
  'owner',
  'domain',
  'structured_properties',
  'custom_properties',
  'structured_property',
  'incident_status',
  'incident',
  'query',
  'document_contents',
  'document_status',
  'document_related_entities',
  'document_sub_type',
  'data_contract',
] as const;
export const deleteWhats = ['query', 'tag', 'domain', 'glossary_entity', 'data_product', 'application', 'document', 'structured_property'] as const;

export interface WriteArgs {
  what: string;
  urn?: string;
  action?: string;
  name?: string;
  description?: string;
  value?: string;
  parent_node?: string;
  domain_urn?: string;
  status?: string;
  sub_type?: string;
  related_assets?: string[];
  global_context?: boolean;
  language?: string;
  dataset_urns?: string[];
  entity_urns?: string[];
  incident_type?: string;
  priority?: string;
  qualified_name?: string;
  value_type?: string;
  entity_types?: string[];
  cardinality?: string;
  schema_assertions?: string[];
  freshness_assertions?: string[];
  data_quality_assertions?: string[];
  target_urn?: string;
  url?: string;
  field_path?: string;
  ownership_type?: string;
  properties?: Array<{ property_urn: string; values: Array<string | number> }>;
  property_urns?: string[];
  custom_properties?: Record<string, string>;
  property_keys?: string[];
  state?: string;
  title?: string;
  text?: string;
}

/** One mutation to send and how to read the affected URN and the action from its answer. */
export interface WritePlan {
  operation: Operation;
  variables: Record<string, unknown>;
  /** The answer's `urn` (the created entity, the contract) — by default the `urn` argument. */
  resultUrn: (data: Gql) => string;
  action: string;
  /** The `what` reported back. */
  what: string;
  targetUrn?: string;
}

const invalid = (message: string) => new CatalogError('invalid', message);

function required<T>(value: T | undefined | null, field: string): T {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0)) {
    throw invalid(`${field} parameter is required`);
  }
  return value;
}

/** Two spellings of one input (`value` and `target_urn`, `value` and `description`): either, or both agreeing. */
function either(a: string | undefined, b: string | undefined, names: [string, string]): string {
  const x = a?.trim() || undefined;
  const y = b?.trim() || undefined;
  if (x && y && x !== y) throw invalid(`${names[0]} and ${names[1]} disagree; give one of them`);
  return required(x ?? y, names[0]);
}

function actionOf(args: WriteArgs, allowed: readonly string[], fallback?: string): string {
  const action = args.action?.trim().toLowerCase() || fallback;
  if (!action || !allowed.includes(action)) throw invalid(`action must be one of ${allowed.join(', ')} for what=${args.what}`);
  return action;
}

const fromString = (data: Gql, field: string) => String(data[field]);
const fromObject = (data: Gql, field: string) => String((data[field] as Gql | null)?.urn);
const refs = (urns: string[] | undefined) => urns?.map((assertionUrn) => ({ assertionUrn }));
const dataType = (t: string) => (t.startsWith('urn:') ? t : `urn:li:dataType:datahub.${t}`);
const entityType = (t: string) => (t.startsWith('urn:') ? t : `urn:li:entityType:datahub.${t}`);

export function createPlan(args: WriteArgs): WritePlan {
  const base = { action: 'created', what: args.what };
  const named = (field: string, op: Operation, input: Record<string, unknown>, read: (d: Gql, f: string) => string = fromString): WritePlan => ({
    ...base,
    operation: op,
    variables: { input },
    resultUrn: (d) => read(d, field),
  });
  switch (args.what) {
    case 'tag':
      return named('createTag', ops.createTagMutation, { name: required(args.name, 'name'), description: args.description });
    case 'domain':
      return named('createDomain', ops.createDomainMutation, { name: required(args.name, 'name'), description: args.description });
    case 'glossary_term':
      return named('createGlossaryTerm', ops.createGlossaryTermMutation, { name: required(args.name, 'name'), description: args.description, parentNode: args.parent_node });
    case 'data_product':
      return named(
        'createDataProduct',
        ops.createDataProductMutation,
        { domainUrn: required(args.domain_urn, 'domain_urn'), properties: { name: required(args.name, 'name'), description: args.description } },
        fromObject,
      );
    case 'document':
      return named('createDocument', ops.createDocumentMutation, {
        title: required(args.name, 'name'),
        contents: { text: args.description ?? '' },
        state: (args.status ?? 'PUBLISHED').toUpperCase(),
        subType: args.sub_type,
        relatedAssets: args.related_assets,
        settings: { showInGlobalContext: args.global_context ?? true },
      });
    case 'application':
      return named('createApplication', ops.createApplicationMutation, { properties: { name: required(args.name, 'name'), description: args.description } }, fromObject);
    case 'query':
      return named(
        'createQuery',
        ops.createQueryMutation,
        {
          properties: { name: args.name, description: args.description, statement: { value: required(args.value, 'value'), language: (args.language ?? 'SQL').toUpperCase() } },
          subjects: (args.dataset_urns ?? []).map((datasetUrn) => ({ datasetUrn })),
        },
        fromObject,
      );
    case 'incident':
      return named('raiseIncident', ops.raiseIncidentMutation, {
        resourceUrns: required(args.entity_urns, 'entity_urns'),
        title: required(args.name, 'name'),
        type: required(args.incident_type, 'incident_type').toUpperCase(),
        description: args.description,
        priority: args.priority?.toUpperCase(),
      });
    case 'structured_property':
      return named(
        'createStructuredProperty',
        ops.createStructuredPropertyMutation,
        {
          qualifiedName: required(args.qualified_name, 'qualified_name'),
          valueType: dataType(required(args.value_type, 'value_type')),
          entityTypes: required(args.entity_types, 'entity_types').map(entityType),
          displayName: args.name,
          description: args.description,
          cardinality: args.cardinality?.toUpperCase(),
        },
        fromObject,
      );
    case 'data_contract':
      return named(
        'upsertDataContract',
        ops.upsertDataContractMutation,
        {
          entityUrn: required(args.dataset_urns, 'dataset_urns')[0],
          schema: refs(args.schema_assertions),
          freshness: refs(args.freshness_assertions),
          dataQuality: refs(args.data_quality_assertions),
        },
        fromObject,
      );
    default:
      throw invalid(`invalid what value: ${args.what}`);
  }
}

export function updatePlan(args: WriteArgs): WritePlan {
  const urn = required(args.urn, 'urn');
  const plan = (operation: Operation, variables: Record<string, unknown>, action = 'updated', extra: Partial<WritePlan> = {}): WritePlan => ({
    operation,
    variables,
    action,
    what: args.what,
    resultUrn: () => urn,
    ...extra,
  });
  // A column (field_path) as the target of a tag, term or description, when given.
  const column = args.field_path?.trim() ? { subResourceType: 'DATASET_FIELD', subResource: args.field_path.trim() } : {};
  switch (args.what) {
    case 'description':
      return plan(ops.updateDescriptionMutation, { input: { description: either(args.value, args.description, ['value', 'description']), resourceUrn: urn } });
    case 'column_description':
      required(args.field_path, 'field_path');
      return plan(ops.updateDescriptionMutation, { input: { description: either(args.value, args.description, ['value', 'description']), resourceUrn: urn, ...column } });
    case 'tag': {
      const action = actionOf(args, ['add', 'remove']);
      const tagUrn = either(args.target_urn, args.value, ['target_urn', 'value']);
      return plan(action === 'add' ? ops.addTagMutation : ops.removeTagMutation, { input: { tagUrn, resourceUrn: urn, ...column } }, action, { targetUrn: tagUrn });
    }
    case 'glossary_term': {
      const action = actionOf(args, ['add', 'remove']);
      const termUrn = either(args.target_urn, args.value, ['target_urn', 'value']);
      return plan(action === 'add' ? ops.addTermMutation : ops.removeTermMutation, { input: { termUrn, resourceUrn: urn, ...column } }, action, { targetUrn: termUrn });
    }
    case 'link': {
      const action = actionOf(args, ['add', 'remove']);
      const linkUrl = required(args.url, 'url');
      return action === 'add'
        ? plan(ops.addLinkMutation, { input: { linkUrl, label: args.value?.trim() || linkUrl, resourceUrn: urn } }, action)
        : plan(ops.removeLinkMutation, { input: { linkUrl, resourceUrn: urn } }, action);
    }
    case 'owner': {
      const action = actionOf(args, ['add', 'remove']);
      const ownerUrn = required(args.target_urn, 'target_urn');
      if (action === 'remove') return plan(ops.removeOwnerMutation, { input: { ownerUrn, resourceUrn: urn } }, action, { targetUrn: ownerUrn });
      const type = args.ownership_type?.trim() || 'TECHNICAL_OWNER';
      const ownershipTypeUrn = type.startsWith('urn:') ? type : `urn:li:ownershipType:__system__${type.toLowerCase()}`;
      const ownerEntityType = ownerUrn.startsWith('urn:li:corpGroup:') ? 'CORP_GROUP' : 'CORP_USER';
      return plan(ops.addOwnerMutation, { input: { ownerUrn, ownerEntityType, ownershipTypeUrn, resourceUrn: urn } }, action, { targetUrn: ownerUrn });
    }
    case 'domain': {
      const action = actionOf(args, ['set', 'remove'], 'set');
      if (action === 'remove') return plan(ops.unsetDomainMutation, { entityUrn: urn }, action);
      const domainUrn = required(args.target_urn, 'target_urn');
      return plan(ops.setDomainMutation, { entityUrn: urn, domainUrn }, action, { targetUrn: domainUrn });
    }
    case 'structured_properties': {
      const action = actionOf(args, ['set', 'remove'], 'set');
      if (action === 'remove') {
        return plan(ops.removeStructuredPropertiesMutation, { input: { assetUrn: urn, structuredPropertyUrns: required(args.property_urns, 'property_urns') } }, action);
      }
      const params = required(args.properties, 'properties').map((p) => ({
        structuredPropertyUrn: p.property_urn,
        values: p.values.map((v) => (typeof v === 'number' ? { numberValue: v } : { stringValue: v })),
      }));
      return plan(ops.upsertStructuredPropertiesMutation, { input: { assetUrn: urn, structuredPropertyInputParams: params } }, action);
    }
    case 'custom_properties':
      throw new CatalogError('unsupported', "custom_properties cannot be changed: DataHub's GraphQL API has no mutation for an entity's customProperties; use structured_properties");
    case 'structured_property':
      return plan(ops.updateStructuredPropertyMutation, { input: { urn, displayName: args.name, description: args.description } });
    case 'incident_status': {
      const state = required(args.state, 'state').toUpperCase();
      return plan(ops.updateIncidentStatusMutation, { urn, input: { state, message: args.value } }, `updated to ${state}`);
    }
    case 'incident':
      return plan(ops.updateIncidentMutation, { urn, input: { title: args.name, description: args.description, priority: args.priority?.toUpperCase() } });
    case 'query':
      return plan(ops.updateQueryMutation, {
        urn,
        input: {
          properties: {
            name: args.name,
            description: args.description,
            statement: args.value ? { value: args.value, language: (args.language ?? 'SQL').toUpperCase() } : undefined,
          },
          subjects: args.dataset_urns?.map((datasetUrn) => ({ datasetUrn })),
        },
      });
    case 'document_contents':
      return plan(ops.updateDocumentContentsMutation, { input: { urn, title: args.title, contents: args.text !== undefined ? { text: args.text } : undefined } });
    case 'document_status':
      return plan(ops.updateDocumentStatusMutation, { input: { urn, state: required(args.value, 'value').toUpperCase() } });
    case 'document_related_entities':
      return plan(ops.updateDocumentRelatedEntitiesMutation, { input: { urn, relatedAssets: args.entity_urns ?? [] } });
    case 'document_sub_type':
      return plan(ops.updateDocumentSubTypeMutation, { input: { urn, subType: required(args.value, 'value') } });
    case 'data_contract':
      return plan(
        ops.upsertDataContractMutation,
        { input: { entityUrn: urn, schema: refs(args.schema_assertions), freshness: refs(args.freshness_assertions), dataQuality: refs(args.data_quality_assertions) } },
        'updated',
        { resultUrn: (d) => fromObject(d, 'upsertDataContract') },
      );
    default:
      throw invalid(`invalid what value: ${args.what}`);
  }
}

const deleteOperations: Record<(typeof deleteWhats)[number], Operation> = {
  query: ops.deleteQueryMutation,
  tag: ops.deleteTagMutation,
  domain: ops.deleteDomainMutation,
  glossary_entity: ops.deleteGlossaryEntityMutation,
  data_product: ops.deleteDataProductMutation,
  application: ops.deleteApplicationMutation,
  document: ops.deleteDocumentMutation,
  structured_property: ops.deleteStructuredPropertyMutation,
};

export function deletePlan(args: WriteArgs): WritePlan {
  const urn = required(args.urn, 'urn');
  const operation = (deleteOperations as Record<string, Operation | undefined>)[args.what];
  if (!operation) throw invalid(`invalid what value: ${args.what}`);
  const variables = args.what === 'structured_property' ? { input: { urn } } : { urn };
  return { operation, variables, action: 'deleted', what: args.what, resultUrn: () => urn };
}
