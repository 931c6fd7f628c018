/**
 * The readable text of an office XML part. Pure, regex-level: these parts are machine-written,
 * and we want words, not a document tree. Text runs inside a paragraph join as they are (a word
 * may be split over runs); the end of a paragraph, cell or row becomes a line break or a tab.
 */

/** Closing tags that end a line of text (OOXML word/drawing paragraphs, OpenDocument paragraphs and headings, spreadsheet rows). */
const lineEnds = new Set(['w:p', 'a:p', 'text:p', 'text:h', 'row', 'table:table-row', 'si']);
/** Closing tags that separate cells on one line. */
const cellEnds = new Set(['w:tc', 'a:tc', 'c', 'table:table-cell']);
/** Elements whose text is markup for machines, not words (formulas, field codes, hidden instructions). */
const skipped = new Set(['f', 'w:instrText', 'w:delText']);

const token = /<(\/?)([A-Za-z_][\w.:-]*)([^>]*?)(\/?)>|<!\[CDATA\[([\s\S]*?)\]\]>|<![\s\S]*?>|<\?[\s\S]*?\?>|([^<]+)/g;

/** The text of `xml`, at most `maxChars` characters (and stops scanning there). */
export function xmlText(xml: string, maxChars: number): string {
  let out = '';
  let skipDepth = 0;
  for (const m of xml.matchAll(token)) {
    const [, closing, name, , selfClosing, cdata, text] = m;
    if (name !== undefined) {
      if (skipped.has(name) && !selfClosing) skipDepth += closing ? -1 : 1;
      else if (closing && lineEnds.has(name)) out = endLine(out, '\n');
      else if (closing && cellEnds.has(name)) out = endLine(out, '\t');
      else if (!closing && (name === 'w:tab' || name === 'text:tab')) out += '\t';
      else if (!closing && (name === 'w:br' || name === 'a:br' || name === 'text:line-break')) out += '\n';
      else if (!closing && name === 'text:s') out += ' ';
    } else if (skipDepth === 0 && (cdata ?? text) !== undefined) {
      out += cdata ?? decodeEntities(text!);
    }
    if (out.length >= maxChars) break;
  }
  return out.trimEnd().slice(0, maxChars);
}

/** Ends a line (dropping a trailing cell separator) or a cell; never two separators in a row. */
function endLine(out: string, separator: '\n' | '\t'): string {
  const kept = separator === '\n' ? out.replace(/[ \t]+$/, '') : out;
  return kept === '' || /\s$/.test(kept) ? kept : kept + separator;
}

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return named[ref]!;
  });
}
