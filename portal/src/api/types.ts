/** Names for the answers the pages use, taken from the generated operations (schema.d.ts). */
import type { operations } from './schema';

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
/** The JSON body of an operation's success answer (200 or 201). */
export type Answer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: infer A }
    ? JsonOf<A>
    : R extends { 201: infer A }
      ? JsonOf<A>
      : never
  : never;

export type Resource = Answer<'getResource'>;
export type ResourceActions = Resource['allowed_actions'];
export type Thumbnail = NonNullable<Resource['thumbnail']>;
export type FolderFacet = Answer<'getResourceFacets'>['folders'][number];
