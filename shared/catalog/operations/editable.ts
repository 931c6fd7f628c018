/**
 * What the catalog's own edits hold on a dataset, read before a knowledge change writes over it
 * (docs/knowledge.md): the edited description, the tags and terms, the documentation links, and
 * each column's edited description, tags and terms. Rollback restores exactly these.
 */
import { operation } from './operation.js';

const refs = `tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } }`;

export const getEditableStateOperation = operation(
  'GetEditableState',
  `query GetEditableState($urn: String!) {
  entity(urn: $urn) {
    urn
    type
    ... on Dataset {
      editableProperties { description }
      ${refs}
      institutionalMemory { elements { url label } }
      editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description ${refs} } }
    }
  }
}`,
);
