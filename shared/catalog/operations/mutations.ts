/**
 * Every mutation catalog_create / catalog_update / catalog_delete sends (toolkits.md 2.3–2.4). Where
 * the anchor writes aspects over REST (descriptions, tags, terms, links), DataHub's GraphQL
 * mutations do the same change: one transport, and every write validated against the schema.
 */
import { operation, type Operation } from './operation.js';

const m = (name: string, signature: string, call: string): Operation => operation(name, `mutation ${name}${signature} {\n  ${call}\n}`);

// create
export const createTagMutation = m('CreateTag', '($input: CreateTagInput!)', 'createTag(input: $input)');
export const createDomainMutation = m('CreateDomain', '($input: CreateDomainInput!)', 'createDomain(input: $input)');
export const createGlossaryTermMutation = m('CreateGlossaryTerm', '($input: CreateGlossaryEntityInput!)', 'createGlossaryTerm(input: $input)');
export const createDataProductMutation = m('CreateDataProduct', '($input: CreateDataProductInput!)', 'createDataProduct(input: $input) { urn }');
export const createDocumentMutation = m('CreateDocument', '($input: CreateDocumentInput!)', 'createDocument(input: $input)');
export const createApplicationMutation = m('CreateApplication', '($input: CreateApplicationInput!)', 'createApplication(input: $input) { urn }');
export const createQueryMutation = m('CreateQuery', '($input: CreateQueryInput!)', 'createQuery(input: $input) { urn }');
export const raiseIncidentMutation = m('RaiseIncident', '($input: RaiseIncidentInput!)', 'raiseIncident(input: $input)');
export const createStructuredPropertyMutation = m(
  'CreateStructuredProperty',
  '($input: CreateStructuredPropertyInput!)',
  'createStructuredProperty(input: $input) { urn }',
);
export const upsertDataContractMutation = m('UpsertDataContract', '($input: UpsertDataContractInput!)', 'upsertDataContract(input: $input) { urn }');

// update
export const updateDescriptionMutation = m('UpdateDescription', '($input: DescriptionUpdateInput!)', 'updateDescription(input: $input)');
export const addTagMutation = m('AddTag', '($input: TagAssociationInput!)', 'addTag(input: $input)');
export const removeTagMutation = m('RemoveTag', '($input: TagAssociationInput!)', 'removeTag(input: $input)');
export const addTermMutation = m('AddTerm', '($input: TermAssociationInput!)', 'addTerm(input: $input)');
export const removeTermMutation = m('RemoveTerm', '($input: TermAssociationInput!)', 'removeTerm(input: $input)');
export const addLinkMutation = m('AddLink', '($input: AddLinkInput!)', 'addLink(input: $input)');
export const removeLinkMutation = m('RemoveLink', '($input: RemoveLinkInput!)', 'removeLink(input: $input)');
export const addOwnerMutation = m('AddOwner', '($input: AddOwnerInput!)', 'addOwner(input: $input)');
export const removeOwnerMutation = m('RemoveOwner', '($input: RemoveOwnerInput!)', 'removeOwner(input: $input)');
export const setDomainMutation = m('SetDomain', '($entityUrn: String!, $domainUrn: String!)', 'setDomain(entityUrn: $entityUrn, domainUrn: $domainUrn)');
export const unsetDomainMutation = m('UnsetDomain', '($entityUrn: String!)', 'unsetDomain(entityUrn: $entityUrn)');
export const upsertStructuredPropertiesMutation = m(
  'UpsertStructuredProperties',
  '($input: UpsertStructuredPropertiesInput!)',
  'upsertStructuredProperties(input: $input) { properties { structuredProperty { urn } } }',
);
export const removeStructuredPropertiesMutation = m(
  'RemoveStructuredProperties',
  '($input: RemoveStructuredPropertiesInput!)',
  'removeStructuredProperties(input: $input) { properties { structuredProperty { urn } } }',
);
export const updateStructuredPropertyMutation = m(
  'UpdateStructuredProperty',
  '($input: UpdateStructuredPropertyInput!)',
  'updateStructuredProperty(input: $input) { urn }',
);
export const updateIncidentStatusMutation = m(
  'UpdateIncidentStatus',
  '($urn: String!, $input: IncidentStatusInput!)',
  'updateIncidentStatus(urn: $urn, input: $input)',
);
export const updateIncidentMutation = m('UpdateIncident', '($urn: String!, $input: UpdateIncidentInput!)', 'updateIncident(urn: $urn, input: $input)');
export const updateQueryMutation = m('UpdateQuery', '($urn: String!, $input: UpdateQueryInput!)', 'updateQuery(urn: $urn, input: $input) { urn }');
export const updateDocumentContentsMutation = m(
  'UpdateDocumentContents',
  '($input: UpdateDocumentContentsInput!)',
  'updateDocumentContents(input: $input)',
);
export const updateDocumentStatusMutation = m('UpdateDocumentStatus', '($input: UpdateDocumentStatusInput!)', 'updateDocumentStatus(input: $input)');
export const updateDocumentRelatedEntitiesMutation = m(
  'UpdateDocumentRelatedEntities',
  '($input: UpdateDocumentRelatedEntitiesInput!)',
  'updateDocumentRelatedEntities(input: $input)',
);
export const updateDocumentSubTypeMutation = m('UpdateDocumentSubType', '($input: UpdateDocumentSubTypeInput!)', 'updateDocumentSubType(input: $input)');

// delete
export const deleteQueryMutation = m('DeleteQuery', '($urn: String!)', 'deleteQuery(urn: $urn)');
export const deleteTagMutation = m('DeleteTag', '($urn: String!)', 'deleteTag(urn: $urn)');
export const deleteDomainMutation = m('DeleteDomain', '($urn: String!)', 'deleteDomain(urn: $urn)');
export const deleteGlossaryEntityMutation = m('DeleteGlossaryEntity', '($urn: String!)', 'deleteGlossaryEntity(urn: $urn)');
export const deleteDataProductMutation = m('DeleteDataProduct', '($urn: String!)', 'deleteDataProduct(urn: $urn)');
export const deleteApplicationMutation = m('DeleteApplication', '($urn: String!)', 'deleteApplication(urn: $urn)');
export const deleteDocumentMutation = m('DeleteDocument', '($urn: String!)', 'deleteDocument(urn: $urn)');
export const deleteStructuredPropertyMutation = m(
  'DeleteStructuredProperty',
  '($input: DeleteStructuredPropertyInput!)',
  'deleteStructuredProperty(input: $input)',
);
