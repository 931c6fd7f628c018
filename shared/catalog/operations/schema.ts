/**
 * A dataset's schema with field descriptions, tags and terms (ingested and edited in the catalog),
 * and the dataset's own owners, tags, terms, domain, deprecation and health; one dataset or a batch.
 */
import { deprecationFragment, domainFragment, ownersFragment, tagsFragment, termsFragment } from './fragments.js';
import { operation } from './operation.js';

const datasetSchemaFragment = `fragment DatasetSchema on Dataset {
  urn
  name
  platform { name }
  properties { name description }
  editableProperties { description }
  ownership { ...Owners }
  tags { ...Tags }
  glossaryTerms { ...Terms }
  domain { ...DomainRef }
  deprecation { ...DeprecationInfo }
  health { type status message }
  schemaMetadata {
    name
    version
    hash
    platformSchema {
      __typename
      ... on TableSchema { schema }
      ... on KeyValueSchema { keySchema valueSchema }
    }
    fields {
      fieldPath
      jsonPath
      nullable
      description
      type
      nativeDataType
      isPartitioningKey
      tags { ...Tags }
      glossaryTerms { ...Terms }
    }
    primaryKeys
    foreignKeys { name sourceFields { fieldPath } foreignFields { fieldPath } foreignDataset { urn } }
  }
  editableSchemaMetadata {
    editableSchemaFieldInfo { fieldPath description tags { ...Tags } glossaryTerms { ...Terms } }
  }
}`;

const fragments = [datasetSchemaFragment, ownersFragment, tagsFragment, termsFragment, domainFragment, deprecationFragment];

export const getSchemaOperation = operation(
  'GetSchema',
  `query GetSchema($urn: String!) {
  dataset(urn: $urn) { ...DatasetSchema }
}`,
  fragments,
);

export const getSchemasOperation = operation(
  'GetSchemas',
  `query GetSchemas($urns: [String!]!) {
  entities(urns: $urns) { urn ... on Dataset { ...DatasetSchema } }
}`,
  fragments,
);
