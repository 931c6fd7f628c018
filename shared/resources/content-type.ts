/** The content type recorded for an upload: the declared one, else one derived from the file name. */
import mime from 'mime-types';
import { textProblem } from './text.js';

export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/** Type derived from the extension ('a.csv' → 'text/csv'), or undefined. */
export function contentTypeFromName(fileName: string): string | undefined {
  const t = mime.lookup(fileName);
  return t === false ? undefined : t;
}

/**
 * Declared wins unless it is missing or the generic octet-stream (browsers send that for
 * unknown files), in which case the extension decides.
 */
export function chooseContentType(fileName: string, declared: string | undefined): string {
  const d = declared?.trim();
  if (d && d.toLowerCase() !== FALLBACK_CONTENT_TYPE) return d;
  return contentTypeFromName(fileName) ?? d ?? FALLBACK_CONTENT_TYPE;
}

export const MAX_CONTENT_TYPE_CHARS = 255;

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted = '"(?:[\\t\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t\\x20-\\x7e])*"';
/** RFC 9110 §8.3.1: `type/subtype` and `; name=value` parameters (empty ones allowed), printable ASCII only. */
const mediaTypeGrammar = new RegExp(`^${token}/${token}(?:[ \\t]*;[ \\t]*(?:${token}=(?:${token}|${quoted}))?)*$`);

/**
 * Why a declared content type cannot be recorded, or undefined. It becomes the Content-Type header
 * of every download, so it must be a media type a header can carry: no control characters (the
 * refusal names them), nothing but `type/subtype` and parameters.
 */
export function mediaTypeProblem(value: string): string | undefined {
  const type = value.trim();
  const characters = textProblem(type, 'content type', 'line');
  if (characters) return characters;
  if (type.length > MAX_CONTENT_TYPE_CHARS) return `content type is ${type.length} characters; at most ${MAX_CONTENT_TYPE_CHARS}`;
  if (!mediaTypeGrammar.test(type)) return `content type "${type}" is not a media type (type/subtype, optionally followed by ; name=value parameters)`;
  return undefined;
}
