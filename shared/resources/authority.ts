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
 * | recapture         | whoever may change the file, and anyone who may add to its library                |
 * | register          | uploader, administrator, or administrator of the owning persona: the change rule  |
 * | (edit_source)     | change, on a text-family file within the inline preview limit (source-rules.ts)   |
 *
 * The allowed actions every answer carries (`resourceActions`, `folderActions`) are computed from
 * these same rows, so a control is offered exactly where the service would accept the request.
 * "Administrator of the library": the owner of a personal library, a holder of
 * persona-admin:<name> for a persona library, a platform administrator for every library.
 */
import { formatLibrary, sameLibrary } from './library.js';
import { sourceEditable, type SourceFile } from './source-rules.js';
import type { FolderActions, Library, LibraryText, ResourceActions, ResourceActor } from './types.js';

export type ResourceAction = 'read' | 'dereference' | 'list' | 'add' | 'change' | 'describe_folder' | 'move_to' | 'recapture' | 'register';

export interface AuthorityTarget {
  library: Library;
  /** The resource's uploader, for `change`. */
  uploader?: string;
  /** The file's type, name and size, for `edit_source` (the source editor's text-family and size rule). */
  file?: SourceFile;
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
    case 'recapture':
      return may(actor, 'change', target) || may(actor, 'add', target);
    case 'register':
      // The spec's row (uploader, administrator, administrator of the owning persona) is the change rule.
      return may(actor, 'change', target);
  }
}

/**
 * Every library the `read` row admits, for membership-scoped queries over many files (MCP
 * resources/list, search ranking): the caller's own, the personas it is a member of, and global.
 * Administrators get no more here; their wider reach is `dereference`, one named file at a time.
 */
export function readableLibraries(actor: ResourceActor): Library[] {
  return [
    ...(actor.authType === 'anonymous' ? [] : [{ kind: 'person', subject: actor.subject } as Library]),
    ...[...new Set(actor.personas)].map((name): Library => ({ kind: 'persona', name })),
    { kind: 'global' },
  ];
}

/**
 * Moving a file out of its library: the caller may change the file and move into `to` (which is
 * another library). The service's move check and the offered move targets both ask this.
 */
export function mayMove(actor: ResourceActor, from: AuthorityTarget, to: Library): boolean {
  return !sameLibrary(from.library, to) && may(actor, 'change', from) && may(actor, 'move_to', { library: to });
}

/**
 * Whether other people's libraries (`person:<subject>`, named one at a time) are move targets for
 * this file: the `move_to` row admits them for platform administrators only.
 */
export function mayMoveToPeople(actor: ResourceActor, from: AuthorityTarget): boolean {
  return actor.platformAdmin && !isAgent(actor) && may(actor, 'change', from);
}

/**
 * The libraries a move may be offered into, before the per-file rule: the caller's own, the
 * personas (every configured one for a platform administrator, else those the caller belongs to)
 * and global. Other people's libraries are named one by one (the move-targets route lists the
 * people the platform has seen), never enumerated here.
 */
export function moveCandidates(actor: ResourceActor): Library[] {
  const personas = actor.platformAdmin ? (actor.configuredPersonas ?? actor.personas) : actor.personas;
  return [
    ...(actor.authType === 'anonymous' ? [] : [{ kind: 'person', subject: actor.subject } as Library]),
    ...[...new Set(personas)].sort().map((name): Library => ({ kind: 'persona', name })),
    { kind: 'global' },
  ];
}

/** What the caller may do with a resource, as every resource answer carries it. */
export function resourceActions(actor: ResourceActor, target: AuthorityTarget): ResourceActions {
  // `change` implies `dereference` (the uploader's clause asks it; administering a library implies it).
  const change = may(actor, 'change', target);
  return {
    read: may(actor, 'dereference', target),
    change,
    delete: change,
    move_targets: moveCandidates(actor)
      .filter((to) => mayMove(actor, target, to))
      .map((to): LibraryText => formatLibrary(to)),
    move_to_people: mayMoveToPeople(actor, target),
    recapture: may(actor, 'recapture', target),
    register: may(actor, 'register', target),
    edit_source: change && target.file !== undefined && sourceEditable(target.file),
  };
}

/**
 * What the caller may do in a folder (`path` '' is the library's top-level folder, which takes
 * files but is neither described nor deleted: those need a folder path).
 */
export function folderActions(actor: ResourceActor, library: Library, path: string): FolderActions {
  const isFolder = path !== '';
  return {
    list: may(actor, 'list', { library }),
    add: may(actor, 'add', { library }),
    describe: isFolder && may(actor, 'describe_folder', { library }),
    delete: isFolder && may(actor, 'add', { library }),
  };
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
    case 'recapture':
      return `not allowed to recapture this file's thumbnail in ${libraryText}: that needs authority to change the file or to add files there`;
    case 'register':
      return `not allowed to register this file in ${libraryText} as a table: only its uploader or an administrator of the library may`;
  }
}
