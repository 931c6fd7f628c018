/** One glossary term with its parent node, owners, properties and related terms. */
import { ownersFragment } from './fragments.js';
import { operation } from './operation.js';

/** DataHub's relationship names between glossary terms. */
export const glossaryRelationTypes = ['IsA', 'HasA', 'HasValue', 'IsRelatedTo'] as const;

export const getGlossaryTermOperation = operation(
  'GetGlossaryTerm',
  `query GetGlossaryTerm($urn: String!, $relationTypes: [String!]!) {
  glossaryTerm(urn: $urn) {
    urn
    hierarchicalName
    properties { name description customProperties { key value } }
    parentNodes { nodes { urn properties { name } } }
    ownership { ...Owners }
    relationships(input: { types: $relationTypes, direction: OUTGOING, start: 0, count: 100 }) {
      relationships { type entity { urn ... on GlossaryTerm { hierarchicalName properties { name } } } }
    }
  }
}`,
  [ownersFragment],
);
