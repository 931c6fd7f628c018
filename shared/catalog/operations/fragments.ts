/**
 * Selections shared by several operations: owners, tags, glossary terms, domain, deprecation, and
 * the per-type name/description of any entity. Each document appends the fragments it spreads.
 */

export const ownersFragment = `fragment Owners on Ownership {
  owners {
    owner {
      __typename
      ... on CorpUser { urn username properties { displayName fullName email } }
      ... on CorpGroup { urn name properties { displayName email } }
    }
    ownershipType { urn info { name } }
  }
}`;

export const tagsFragment = `fragment Tags on GlobalTags {
  tags { tag { urn properties { name description } } }
}`;

export const termsFragment = `fragment Terms on GlossaryTerms {
  terms { term { urn hierarchicalName properties { name description } } }
}`;

export const domainFragment = `fragment DomainRef on DomainAssociation {
  domain { urn properties { name description } }
}`;

export const deprecationFragment = `fragment DeprecationInfo on Deprecation {
  deprecated note actor decommissionTime
}`;

/** Name, platform and description of the entity types the tools show; other types keep urn and type. */
export const entitySummaryFragment = `fragment EntitySummary on Entity {
  urn
  type
  ... on Dataset { name platform { name } properties { name description } editableProperties { description } }
  ... on Dashboard { platform { name } properties { name description } editableProperties { description } }
  ... on Chart { platform { name } properties { name description } editableProperties { description } }
  ... on DataFlow { platform { name } properties { name description } editableProperties { description } }
  ... on DataJob { properties { name description } editableProperties { description } }
  ... on Container { platform { name } properties { name description } editableProperties { description } }
  ... on GlossaryTerm { hierarchicalName properties { name description } }
  ... on GlossaryNode { properties { name description } }
  ... on Domain { properties { name description } }
  ... on DataProduct { properties { name description } }
  ... on Tag { properties { name description } }
  ... on CorpUser { username properties { displayName fullName email } }
  ... on CorpGroup { name properties { displayName description } }
}`;
