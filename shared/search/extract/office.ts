/**
 * Office documents: docx through mammoth; xlsx, pptx and OpenDocument text from their XML parts.
 * Every zip is read through readZipParts, so what is inflated is capped (zip bombs are refused)
 * before mammoth (whose own zip reader has no such cap) sees the file.
 */
import mammoth from 'mammoth';
import type { OfficeFormat } from './kind.js';
import { boundText } from './text.js';
import { escapeXml, xmlText } from './xml-text.js';
import { readZipParts, type ZipPart } from './zip.js';

/** The parts that hold a format's words, in reading order once sorted naturally (slide2 before slide10). */
const contentParts: Record<OfficeFormat, RegExp> = {
  docx: /^word\/(document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml$/,
  xlsx: /^xl\/(workbook|sharedStrings|worksheets\/sheet\d+)\.xml$/,
  pptx: /^ppt\/(slides\/slide\d+|notesSlides\/notesSlide\d+)\.xml$/,
  odt: /^content\.xml$/,
  ods: /^content\.xml$/,
  odp: /^content\.xml$/,
};

const natural = new Intl.Collator('en', { numeric: true });

/** The XML parts of an office document that carry its contents, naturally ordered. */
export async function contentXmlParts(bytes: Uint8Array, format: OfficeFormat, maxInflatedBytes: number): Promise<ZipPart[]> {
  const parts = await readZipParts(bytes, (name) => contentParts[format].test(name), maxInflatedBytes);
  return parts.sort((a, b) => natural.compare(a.name, b.name));
}

export async function officeText(bytes: Uint8Array, format: OfficeFormat, maxChars: number, maxInflatedBytes: number): Promise<string> {
  if (format === 'docx') {
    // Inflate the XML parts mammoth reads through our capped reader first: a bomb stops here.
    await readZipParts(bytes, (name) => /\.(xml|rels)$/.test(name), maxInflatedBytes);
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    return boundText(value.trim(), maxChars);
  }
  const parts = await contentXmlParts(bytes, format, maxInflatedBytes);
  const xml = (name: string) => parts.find((p) => p.name === name)?.bytes.toString('utf8');
  const texts =
    format === 'xlsx'
      ? sheetTexts(parts, xml('xl/sharedStrings.xml'), maxChars)
      : parts.map((p) => xmlText(p.bytes.toString('utf8'), maxChars));
  return boundText(texts.filter((t) => t !== '').join('\n\n'), maxChars);
}

/**
 * A workbook's cells, sheet by sheet. A cell of type `s` holds an index into the shared strings,
 * so each is replaced by its string before the sheet is read as text.
 */
function sheetTexts(parts: ZipPart[], sharedXml: string | undefined, maxChars: number): string[] {
  const shared = [...(sharedXml ?? '').matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)].map((m) => xmlText(m[1]!, maxChars));
  return parts
    .filter((p) => p.name.startsWith('xl/worksheets/'))
    .map((p) => {
      const resolved = p.bytes
        .toString('utf8')
        .replace(/(<c\b[^>]*\bt="s"[^>]*>(?:(?!<\/c>)[\s\S])*?<v>)(\d+)(<\/v>)/g, (_, open: string, index: string, close: string) => open + escapeXml(shared[Number(index)] ?? '') + close);
      return xmlText(resolved, maxChars);
    });
}
