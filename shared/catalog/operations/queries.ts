/** Saved queries of a dataset, and the usage statistics' top queries where listQueries is missing. */
import { operation } from './operation.js';

export const listQueriesOperation = operation(
  'ListQueries',
  `query ListQueries($input: ListQueriesInput!) {
  listQueries(input: $input) {
    total
    queries {
      urn
      properties {
        name
        description
        source
        statement { value language }
        created { time actor }
        lastModified { time }
      }
    }
  }
}`,
);

export const topQueriesOperation = operation(
  'TopQueries',
  `query TopQueries($urn: String!) {
  dataset(urn: $urn) { usageStats { buckets { metrics { topSqlQueries } } } }
}`,
);
