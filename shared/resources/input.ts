/**
 * Write inputs, checked at the service boundary before anything is read, stored or queried: every
 * text field against text.ts (which characters), names against names.ts and the executable
 * refusal, declared types, folder paths and libraries. Every surface (REST, the manage_resource
 * tool, later callers) goes through the service, so all of them refuse the same values. Each check
 * throws ResourceError: `invalid` (400) or `unsupported` (415, executables).
 */
import { mediaTypeProblem } from './content-type.js';
import { executableByName } from './executables.js';
import { folderPathProblem, normalizeFolderPath } from './folders.js';
import { libraryKey } from './library.js';
import { defaultDisplayName, fileNameProblem, MAX_DESCRIPTION_CHARS, MAX_DISPLAY_NAME_CHARS, normalizeTags } from './names.js';
import { textProblem, type TextKind } from './text.js';
import { ResourceError, type CreateInput, type Library, type ReplaceInput, type SearchSetting, type UpdateInput } from './types.js';
import type { ParsedUri } from './uri.js';

export const MAX_CHANGE_SUMMARY_CHARS = 2000;

const searchSettings: readonly SearchSetting[] = ['default', 'contents', 'details_only', 'not_indexed'];

function invalidIf(problem: string | undefined, details?: Record<string, unknown>): void {
  if (problem) throw new ResourceError('invalid', problem, details);
}

/** A text field: its characters (per kind) and its length. */
export function textOrThrow(value: string | undefined, field: string, max: number, kind: TextKind): string | undefined {
  if (value === undefined) return undefined;
  invalidIf(textProblem(value, field, kind));
  if (value.length > max) throw new ResourceError('invalid', `${field} is ${value.length} characters; at most ${max}`);
  return value;
}

export function descriptionOrThrow(value: string | undefined): string | undefined {
  return textOrThrow(value, 'description', MAX_DESCRIPTION_CHARS, 'text');
}

export function changeSummaryOrThrow(value: string | undefined): string | undefined {
  return textOrThrow(value, 'change summary', MAX_CHANGE_SUMMARY_CHARS, 'text');
}

export function tagsOrThrow(tags: readonly string[] | undefined): string[] | undefined {
  if (tags === undefined) return undefined;
  const result = normalizeTags(tags);
  if ('problem' in result) throw new ResourceError('invalid', result.problem);
  return result.tags;
}

export function searchSettingOrThrow(value: SearchSetting | undefined): SearchSetting | undefined {
  if (value !== undefined && !searchSettings.includes(value)) {
    throw new ResourceError('invalid', `search_setting must be one of ${searchSettings.join(', ')}`);
  }
  return value;
}

export function folderPathOrThrow(path: string | undefined): string {
  const normalized = normalizeFolderPath(path);
  invalidIf(folderPathProblem(normalized), { rule: 'folder_name' });
  return normalized;
}

/** A library named by the caller: its subject or persona name reaches queries, so no control characters. */
export function libraryOrThrow(library: Library): Library {
  invalidIf(textProblem(libraryKey(library).key, 'library', 'line'));
  return library;
}

/** A parsed address (resolve): each part reaches a query. */
export function addressOrThrow(address: ParsedUri): ParsedUri {
  libraryOrThrow(address.library);
  invalidIf(textProblem(address.folderPath, 'folder path', 'line'));
  invalidIf(textProblem(address.fileName, 'file name', 'line'));
  return address;
}

/**
 * A file name being set (upload) or re-filed (move): an executable is refused first (415, whatever
 * else is wrong with the name), then the name rule (400).
 */
export function fileNameOrThrow(fileName: string): string {
  const exe = executableByName(fileName);
  if (exe) throw new ResourceError('unsupported', exe);
  invalidIf(fileNameProblem(fileName));
  return fileName;
}

/** A declared content type: recorded and served as a header, so it must be a clean media type. */
export function declaredTypeOrThrow(declared: string | undefined): string | undefined {
  if (declared === undefined) return undefined;
  invalidIf(mediaTypeProblem(declared));
  return declared.trim();
}

/** The type to record refused when it, or the declared one, is an executable type. */
export function executableTypeOrThrow(fileName: string, contentType: string, declared: string | undefined): void {
  const exe = executableByName(fileName, contentType) ?? (declared ? executableByName(fileName, declared) : undefined);
  if (exe) throw new ResourceError('unsupported', exe);
}

/** A create's checked inputs (the content type is decided by the service from name and declaration). */
export function createDetails(input: CreateInput) {
  const fileName = fileNameOrThrow(input.file_name);
  return {
    library: libraryOrThrow(input.library),
    folderPath: folderPathOrThrow(input.path),
    fileName,
    declaredType: declaredTypeOrThrow(input.content_type),
    displayName: textOrThrow(input.display_name?.trim() || undefined, 'display name', MAX_DISPLAY_NAME_CHARS, 'name') ?? defaultDisplayName(fileName),
    description: descriptionOrThrow(input.description) ?? '',
    tags: tagsOrThrow(input.tags) ?? [],
    searchSetting: searchSettingOrThrow(input.search_setting) ?? 'default',
    changeSummary: changeSummaryOrThrow(input.change_summary) ?? null,
    objectName: input.object_name === undefined ? undefined : fileNameOrThrow(input.object_name),
  };
}

/** A replace's checked inputs. */
export function replaceDetails(input: ReplaceInput) {
  return {
    declaredType: declaredTypeOrThrow(input.content_type),
    changeSummary: changeSummaryOrThrow(input.change_summary) ?? null,
    objectName: input.object_name === undefined ? undefined : fileNameOrThrow(input.object_name),
  };
}

/** An update's checked inputs; undefined fields stay as they are. */
export function updateDetails(input: UpdateInput) {
  const displayName = textOrThrow(input.display_name?.trim(), 'display name', MAX_DISPLAY_NAME_CHARS, 'name');
  if (displayName === '') throw new ResourceError('invalid', 'display name must not be empty');
  const addTags = tagsOrThrow(input.add_tags);
  const removeTags = tagsOrThrow(input.remove_tags);
  if (input.tags !== undefined && (addTags !== undefined || removeTags !== undefined)) {
    throw new ResourceError('invalid', 'give tags (the whole list) or add_tags / remove_tags, not both');
  }
  const both = addTags?.find((t) => removeTags?.includes(t));
  if (both !== undefined) throw new ResourceError('invalid', `tag "${both}" is both added and removed`);
  return {
    displayName,
    description: descriptionOrThrow(input.description),
    tags: tagsOrThrow(input.tags),
    tagEdit: addTags !== undefined || removeTags !== undefined ? { add: addTags ?? [], remove: removeTags ?? [] } : undefined,
    searchSetting: searchSettingOrThrow(input.search_setting),
    library: input.library !== undefined ? libraryOrThrow(input.library) : undefined,
    targetPath: input.path !== undefined ? folderPathOrThrow(input.path) : undefined,
  };
}

/**
 * A file's tags after an add/remove edit, from the tags it has now (read under its row lock): the
 * removed ones go, the added ones join at the end (one already there stays where it is); the
 * result is held to the tag limits like any tag list.
 */
export function editedTags(current: readonly string[], edit: { add: readonly string[]; remove: readonly string[] }): string[] {
  const kept = current.filter((t) => !edit.remove.includes(t));
  return tagsOrThrow([...kept, ...edit.add.filter((t) => !kept.includes(t))])!;
}
