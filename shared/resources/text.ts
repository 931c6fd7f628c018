/**
 * Which characters a text field of a resource or folder may hold (issue 9, item 5). Pure rules;
 * input.ts applies them to every write at the service boundary, so REST, the manage_resource tool
 * and any later caller refuse the same values (400 `invalid`; nothing stored).
 *
 * Three kinds of field:
 *  - `name` (file name, display name, tag): one line shown as what a thing is called. No control
 *    character at all (C0, DEL, C1) and no bidirectional control (U+061C, U+200E, U+200F,
 *    U+202A–U+202E, U+2066–U+2069): those make `invoice‮fdp.exe` display as `invoiceexe.pdf`.
 *  - `line` (library subject or persona name, addresses, references): no control character.
 *  - `text` (description, folder description, change summary): prose; tab, line feed and carriage
 *    return are allowed (a browser's textarea sends CR LF), every other control character is not.
 *    Bidirectional marks stay allowed here: right-to-left prose uses them legitimately.
 * Every kind refuses unpaired UTF-16 surrogates: they have no UTF-8 form (Postgres would store
 * U+FFFD, encodeURIComponent throws while building a download header).
 */

export type TextKind = 'name' | 'line' | 'text';

/** C0 controls, DEL and C1 controls. */
const controls = /[\u0000-\u001f\u007f-\u009f]/;
/** The same without tab, line feed and carriage return. */
const controlsBesideLineBreaks = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Arabic letter mark, LRM/RLM, embeddings and overrides, isolates. */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** With the u flag, a surrogate range matches only code units that are not part of a pair. */
const loneSurrogate = /[\ud800-\udfff]/u;

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function found(value: string, pattern: RegExp): string | undefined {
  const m = pattern.exec(value);
  return m ? `${codePoint(m[0])} at position ${m.index + 1}` : undefined;
}

/**
 * Why `value` cannot be the text of `field`, or undefined. The refusal names the character and
 * where it is, never the value itself (it may be long, or invisible).
 */
export function textProblem(value: string, field: string, kind: TextKind): string | undefined {
  const control = found(value, kind === 'text' ? controlsBesideLineBreaks : controls);
  if (control) {
    const allowed = kind === 'text' ? ' other than tab and line breaks' : '';
    return `${field} must not contain control characters${allowed} (${control})`;
  }
  if (kind === 'name') {
    const bidi = found(value, bidiControls);
    if (bidi) return `${field} must not contain bidirectional control characters (${bidi})`;
  }
  const surrogate = found(value, loneSurrogate);
  if (surrogate) return `${field} is not valid Unicode: an unpaired surrogate (${surrogate})`;
  return undefined;
}
