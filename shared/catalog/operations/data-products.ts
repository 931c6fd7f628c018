/** One data product with its domain, owners, properties and asset URNs. */
import { domainFragment, ownersFragment } from './fragments.js';
import { operation } from './operation.js';

export const getDataProductOperation = operation(
  'GetDataProduct',
  `query GetDataProduct($urn: String!, $assetCount: Int!) {
  dataProduct(urn: $urn) {
    urn
    properties { name description customProperties { key value } }
    domain { ...DomainRef }
    ownership { ...Owners }
    entities(input: { query: "*", start: 0, count: $assetCount }) { total searchResults { entity { urn } } }
  }
}`,
  [domainFragment, ownersFragment],
);
