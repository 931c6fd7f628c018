/** One entity of any type with its ownership, tags, terms, domain, deprecation and properties. */
import { deprecationFragment, domainFragment, entitySummaryFragment, ownersFragment, tagsFragment, termsFragment } from './fragments.js';
import { operation } from './operation.js';

const governed = `ownership { ...Owners } tags { ...Tags } glossaryTerms { ...Terms } domain { ...DomainRef } deprecation { ...DeprecationInfo }`;

export const getEntityOperation = operation(
  'GetEntity',
  `query GetEntity($urn: String!) {
  entity(urn: $urn) {
    ...EntitySummary
    ... on Dataset {
      ${governed}
      subTypes { typeNames }
      properties { customProperties { key value } created lastModified { time } }
      health { type status message }
    }
    ... on Dashboard { ${governed} subTypes { typeNames } properties { customProperties { key value } } }
    ... on Chart { ${governed} subTypes { typeNames } properties { customProperties { key value } } }
    ... on DataFlow { ${governed} properties { customProperties { key value } } }
    ... on DataJob { ${governed} properties { customProperties { key value } } }
    ... on Container { ${governed} subTypes { typeNames } properties { customProperties { key value } } }
    ... on GlossaryTerm { ownership { ...Owners } domain { ...DomainRef } deprecation { ...DeprecationInfo } properties { customProperties { key value } } }
    ... on GlossaryNode { ownership { ...Owners } properties { customProperties { key value } } }
    ... on Domain { ownership { ...Owners } }
    ... on DataProduct { ownership { ...Owners } tags { ...Tags } glossaryTerms { ...Terms } domain { ...DomainRef } properties { customProperties { key value } } }
    ... on Tag { ownership { ...Owners } }
  }
}`,
  [entitySummaryFragment, ownersFragment, tagsFragment, termsFragment, domainFragment, deprecationFragment],
);
