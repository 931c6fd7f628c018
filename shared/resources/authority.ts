/**
 * The authority table of spec document 2 as one pure function. Each action is a row:
 *
 * | action            | who may                                                                          |
 * |-------------------|----------------------------------------------------------------------------------|
 * | read              | global: everyone; persona: its members; person: its owner (membership-scoped:    |
 * |                   | MCP resources/read, search ranking)                                               |
 * | dereference       | read, or administer the library (by-id routes, fetch of mcp:resource:; spec:      |
 * |                   | "administrators can dereference any named file")                                  |
 * | list              | own library, member personas, global; plus libraries the caller may add to        |
 * | add               | own library: owner; persona: role persona-admin:<name>; any: platform admin      |
 * | change            | replace/edit/delete by id: uploader, or an administrator of the library;          |
 * |                   | platform admins any resource                                                      |
 * | describe_folder   | authority to add files there                                                      |
 * | move_to           | destination: own library, a persona the caller belongs to; platform admins every  |
 * |                   | persona, global and a named person's library. Agents and scripts never move       |
 * |                   | between libraries (spec: "Agents cannot move resources between libraries")        |
 *
 * "Administrator of the library": the owner of a personal library, a holder of
 * persona-admin:<name> for a persona library, a platform administrator for every library.
 */
import type { Library, ResourceActor } from './types.js';

export type ResourceAction = 'read' | 'dereference' | 'list' | 'add' | 'change' | 'describe_folder' | 'move_to';

export interface AuthorityTarget {
  library: Library;
  /** The resource's uploader, for `change`. */
  uploader?: string;
}

/** Whether the actor is an agent session or a managed script (not a person at the portal). */
export function isAgent(actor: ResourceActor): boolean {
  return actor.writer.kind !== 'person';
}

/** Anonymous callers share one subject, so none of them owns a personal library. */
function isOwner(actor: ResourceActor, library: Library): boolean {
  return actor.authType !== 'anonymous' && library.kind === 'person' && library.subject === actor.subject;
}

function isMember(actor: ResourceActor, library: Library): boolean {
  return library.kind === 'persona' && actor.personas.includes(library.name);
}

/** Administers the library: owner of a personal one, persona-admin of a persona, platform admin of all. */
export function administers(actor: ResourceActor, library: Library): boolean {
  if (actor.platformAdmin) return true;
  if (library.kind === 'person') return isOwner(actor, library);
  if (library.kind === 'persona') return actor.adminOfPersonas.includes(library.name);
  return false;
}

export function may(actor: ResourceActor, action: ResourceAction, target: AuthorityTarget): boolean {
  const { library } = target;
  switch (action) {
    case 'read':
      return library.kind === 'global' || isOwner(actor, library) || isMember(actor, library);
    case 'dereference':
      return may(actor, 'read', target) || administers(actor, library);
    case 'list':
      return may(actor, 'read', target) || may(actor, 'add', target);
    case 'add':
    case 'describe_folder':
      return administers(actor, library);
    case 'change':
      return (target.uploader !== undefined && target.uploader === actor.subject && may(actor, 'dereference', target)) || administers(actor, library);
    case 'move_to':
      if (isAgent(actor)) return false;
      if (actor.platformAdmin) return true;
      return isOwner(actor, library) || isMember(actor, library);
  }
}

/** The refusal text for an action the actor may not take. */
export function refusal(action: ResourceAction, libraryText: string): string {
  switch (action) {
    case 'read':
    case 'dereference':
      return `not allowed to read resources in ${libraryText}`;
    case 'list':
      return `not allowed to list ${libraryText}`;
    case 'add':
      return `not allowed to add files to ${libraryText}: that needs the owner of a personal library, the role persona-admin:<name> for a persona, or a platform administrator`;
    case 'describe_folder':
      return `not allowed to describe folders in ${libraryText}: that needs authority to add files there`;
    case 'change':
      return `not allowed to change this file in ${libraryText}: only its uploader or an administrator of the library may`;
    case 'move_to':
      return `not allowed to move files into ${libraryText}`;
  }
}
