/** Dataset lineage through searchAcrossLineage, and fine-grained (column) lineage of datasets. */
import { entitySummaryFragment } from './fragments.js';
import { operation } from './operation.js';

export const searchAcrossLineageOperation = operation(
  'SearchAcrossLineage',
  `query SearchAcrossLineage($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    total
    searchResults {
      degree
      entity { ...EntitySummary }
      paths { path { urn } }
    }
  }
}`,
  [entitySummaryFragment],
);

const fineGrained = `fineGrainedLineages { upstreams { urn path } downstreams { urn path } transformOperation query }`;

export const columnLineageOperation = operation(
  'ColumnLineage',
  `query ColumnLineage($urn: String!) {
  dataset(urn: $urn) { urn ${fineGrained} }
}`,
);

export const columnLineagesOperation = operation(
  'ColumnLineages',
  `query ColumnLineages($urns: [String!]!) {
  entities(urns: $urns) { urn ... on Dataset { ${fineGrained} } }
}`,
);
