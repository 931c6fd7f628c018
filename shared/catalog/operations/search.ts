/** Keyword search over one entity type, semantic search (newer servers), and the capability probe. */
import { domainFragment, entitySummaryFragment, ownersFragment, tagsFragment } from './fragments.js';
import { operation } from './operation.js';

const resultSelection = `start count total
    searchResults {
      entity {
        ...EntitySummary
        ... on Dataset { ownership { ...Owners } tags { ...Tags } domain { ...DomainRef } }
        ... on Dashboard { ownership { ...Owners } tags { ...Tags } domain { ...DomainRef } }
        ... on Chart { ownership { ...Owners } tags { ...Tags } domain { ...DomainRef } }
        ... on DataProduct { ownership { ...Owners } tags { ...Tags } domain { ...DomainRef } }
        ... on GlossaryTerm { ownership { ...Owners } domain { ...DomainRef } }
      }
      matchedFields { name value }
    }`;

const fragments = [entitySummaryFragment, ownersFragment, tagsFragment, domainFragment];

export const searchOperation = operation(
  'Search',
  `query Search($input: SearchInput!) {
  search(input: $input) {
    ${resultSelection}
  }
}`,
  fragments,
);

/** DataHub 1.4+ with vector search; older servers have no such Query field (see queryFieldsOperation). */
export const semanticSearchOperation = operation(
  'SemanticSearch',
  `query SemanticSearch($input: SearchAcrossEntitiesInput!) {
  semanticSearchAcrossEntities(input: $input) {
    ${resultSelection}
  }
}`,
  fragments,
  'semanticSearchAcrossEntities',
);

/** The server's Query fields, to learn what it supports before using a newer operation. */
export const queryFieldsOperation = operation(
  'QueryFields',
  `query QueryFields {
  __type(name: "Query") { fields { name } }
}`,
);
