/** How the details page names libraries, search settings, doors and writers (never the word "scope"). */
import type { Resource } from '../../api/types';

/** Names of top-level folders as the api gives them (GET /api/v1/resources/libraries), by library text. */
export type LibraryNames = ReadonlyMap<string, string>;

/**
 * A library's top-level folder name: My Resources (one's own), a persona's display name (as the
 * api names it; else the persona's name), Global, or a person's subject under People.
 */
export function libraryLabel(library: string, subject: string, names?: LibraryNames): string {
  if (library === `person:${subject}`) return 'My Resources';
  if (library === 'global') return 'Global';
  const named = names?.get(library);
  if (named) return named;
  if (library.startsWith('persona:')) return library.slice('persona:'.length);
  if (library.startsWith('person:')) return library.slice('person:'.length);
  return library;
}

/** True for another person's library (shown under People). */
export function isPeopleLibrary(library: string, subject: string): boolean {
  return library.startsWith('person:') && library !== `person:${subject}`;
}

/** The label of a move target in the Top-level folder choice. */
export function targetLabel(library: string, subject: string, names?: LibraryNames): string {
  if (isPeopleLibrary(library, subject)) return `People: ${libraryLabel(library, subject, names)}`;
  if (library.startsWith('persona:')) return `${libraryLabel(library, subject, names)} (persona)`;
  return libraryLabel(library, subject, names);
}

export type SearchSetting = Resource['search_setting'];

export const searchSettings: ReadonlyArray<{ value: SearchSetting; label: string; description: string }> = [
  { value: 'default', label: 'Default', description: 'as the deployment’s index rules decide' },
  { value: 'contents', label: 'Contents', description: 'details and contents are searchable' },
  { value: 'details_only', label: 'Details only', description: 'name, description, tags and folder' },
  { value: 'not_indexed', label: 'Not indexed', description: 'never found by search' },
];

export function searchSettingLabel(value: SearchSetting): string {
  return searchSettings.find((s) => s.value === value)?.label ?? value;
}

/** The doors a read comes through (usage), in the order the page lists them. */
export const readDoors: ReadonlyArray<{ key: string; label: string }> = [
  { key: 'resources_read', label: 'Agents (resources/read)' },
  { key: 'search_fetch', label: 'Search fetch' },
  { key: 'portal_download', label: 'Portal downloads' },
];

export const writerKinds: Record<string, string> = { person: 'Person', agent_session: 'Agent session', script: 'Managed script' };
