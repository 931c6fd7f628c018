/**
 * The source editor's rule (spec document 2, "Resource versions": "Save in the source editor |
 * text family, caller may change it, file within the inline preview limit"), pure: which files
 * open in the editor. `allowed_actions.edit_source` (authority.ts) and the save (source.ts) ask it.
 */
import { isDocumentFamily, thumbnailFamily } from './thumbnails/rules.js';

/** The inline preview limit: text files up to this size open in the preview and the editor (the bound fetch returns inline). */
export const INLINE_PREVIEW_BYTES = 1024 * 1024;

/** The change summary of a version saved from the source editor. */
export const EDITED_IN_PORTAL = 'edited in the portal';

/** What the rule reads of a file. */
export interface SourceFile {
  content_type: string;
  file_name: string;
  size: number;
}

/**
 * The text family: files drawn as a page of text (markdown, CSV, TSV, JSON, NDJSON, any text/
 * type, HTML, JSX, YAML, XML, SQL, Python, JavaScript, CSS; thumbnails/rules.ts) and SVG, which
 * is XML text though its tile is a picture.
 */
export function isTextFamily(file: Pick<SourceFile, 'content_type' | 'file_name'>): boolean {
  const family = thumbnailFamily(file.content_type, file.file_name);
  return family !== undefined && (family === 'svg' || isDocumentFamily(family));
}

/** Why the file cannot open in the source editor, or undefined when it can (authority aside). */
export function sourceProblem(file: SourceFile): string | undefined {
  if (!isTextFamily(file)) return `"${file.file_name}" (${file.content_type}) is not a text file: only text files open in the source editor`;
  if (file.size > INLINE_PREVIEW_BYTES) {
    return `"${file.file_name}" is ${file.size} bytes, larger than the inline preview limit of ${INLINE_PREVIEW_BYTES} bytes: replace its content instead`;
  }
  return undefined;
}

export function sourceEditable(file: SourceFile): boolean {
  return sourceProblem(file) === undefined;
}

