/** Listing tags (search by type TAG), domains (listDomains) and data products (search by type DATA_PRODUCT). */
import { domainFragment, ownersFragment } from './fragments.js';
import { operation } from './operation.js';

export const listTagsOperation = operation(
  'ListTags',
  `query ListTags($input: SearchInput!) {
  search(input: $input) {
    total
    searchResults { entity { urn ... on Tag { properties { name description } } } }
  }
}`,
);

export const listDomainsOperation = operation(
  'ListDomains',
  `query ListDomains($input: ListDomainsInput!) {
  listDomains(input: $input) {
    total
    domains {
      urn
      properties { name description }
      parentDomains { domains { urn } }
      ownership { ...Owners }
      entities(input: { start: 0, count: 0 }) { total }
    }
  }
}`,
  [ownersFragment],
);

export const listDataProductsOperation = operation(
  'ListDataProducts',
  `query ListDataProducts($input: SearchInput!) {
  search(input: $input) {
    total
    searchResults {
      entity { urn ... on DataProduct { properties { name description numAssets } domain { ...DomainRef } } }
    }
  }
}`,
  [domainFragment],
);
