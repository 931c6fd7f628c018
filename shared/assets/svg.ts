/**
 * Sanitising an SVG the platform shows but did not write (the implementor logo of the public
 * viewer, `portal.implementor.logo`): an allow-list of drawing elements and attributes, rebuilt
 * from a tokenised copy — no script, no event handler, no foreign content, no style sheet, no
 * reference outside the document (href and url() only to `#fragment`), no DOCTYPE or entities.
 * Anything else is dropped with everything inside it. The viewer shows the result as an image
 * (where SVG never runs script anyway); this is the second wall.
 */

/** Spec document 1, Limits: "Implementor logo: at most 1 MB". */
export const MAX_LOGO_BYTES = 1024 * 1024;

const elements = new Set(
  [
    'svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'defs', 'lineargradient',
    'radialgradient', 'stop', 'clippath', 'mask', 'title', 'desc', 'use', 'symbol', 'pattern',
  ],
);

const attributes = new Set(
  [
    'xmlns', 'xmlns:xlink', 'version', 'viewbox', 'width', 'height', 'preserveaspectratio', 'id', 'd', 'x', 'y', 'x1', 'y1', 'x2', 'y2',
    'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'points', 'transform', 'fill', 'fill-opacity', 'fill-rule', 'clip-rule', 'stroke',
    'stroke-width', 'stroke-opacity', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray',
    'stroke-dashoffset', 'opacity', 'offset', 'stop-color', 'stop-opacity', 'gradientunits', 'gradienttransform', 'spreadmethod',
    'clip-path', 'clippathunits', 'mask', 'maskunits', 'patternunits', 'patterntransform', 'font-family', 'font-size', 'font-weight',
    'font-style', 'text-anchor', 'dominant-baseline', 'letter-spacing', 'dx', 'dy', 'href', 'xlink:href', 'role', 'aria-label',
    'aria-hidden', 'vector-effect', 'visibility', 'display', 'color',
  ],
);

const tokenPattern = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'))?)*)\s*(\/?)>|([^<]+)|</g;
const attributePattern = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'))?/g;

function escapeAttribute(value: string): string {
  return value.replace(/&(?!(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);)/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function safeValue(name: string, value: string): boolean {
  const v = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  if (v.includes('javascript:') || v.includes('data:') || v.includes('expression(')) return false;
  if (name === 'href' || name === 'xlink:href') return value.trim().startsWith('#');
  // Paint and references: only to a fragment of this document.
  for (const m of value.matchAll(/url\(\s*['"]?([^'")]*)/gi)) if (!m[1]!.trim().startsWith('#')) return false;
  return true;
}

/** The sanitised SVG, or undefined when nothing of an <svg> document is left. */
export function sanitiseSvg(text: string): string | undefined {
  const out: string[] = [];
  /** Open elements kept (their names), and how deep inside a dropped element we are. */
  const open: Array<{ name: string; raw: string }> = [];
  let dropDepth = 0;
  let sawRoot = false;
  for (const m of text.matchAll(tokenPattern)) {
    const [, closing, rawName, rawAttributes, selfClosing, textPart] = m;
    if (textPart !== undefined) {
      if (dropDepth === 0 && open.length > 0) out.push(textPart.replace(/&(?!(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);)/g, '&amp;').replace(/>/g, '&gt;'));
      continue;
    }
    if (rawName === undefined) continue; // comments, CDATA, DOCTYPE, processing instructions, a stray '<'
    const name = rawName.toLowerCase();
    if (closing) {
      if (dropDepth > 0) {
        dropDepth--;
        continue;
      }
      if (open[open.length - 1]?.name === name) out.push(`</${open.pop()!.raw}>`);
      continue;
    }
    const kept = dropDepth === 0 && elements.has(name) && (sawRoot ? open.length > 0 : name === 'svg');
    if (!kept) {
      if (!selfClosing) dropDepth++;
      continue;
    }
    sawRoot = true;
    const attrs: string[] = [];
    for (const a of (rawAttributes ?? '').matchAll(attributePattern)) {
      const attr = a[1]!.toLowerCase();
      const value = a[2] ?? a[3];
      if (value === undefined || !attributes.has(attr) || attr.startsWith('on') || !safeValue(attr, value)) continue;
      const written = attr === 'viewbox' ? 'viewBox' : attr === 'preserveaspectratio' ? 'preserveAspectRatio' : attr === 'gradientunits' ? 'gradientUnits' : attr === 'gradienttransform' ? 'gradientTransform' : attr === 'spreadmethod' ? 'spreadMethod' : attr === 'clippathunits' ? 'clipPathUnits' : attr === 'maskunits' ? 'maskUnits' : attr === 'patternunits' ? 'patternUnits' : attr === 'patterntransform' ? 'patternTransform' : attr;
      attrs.push(` ${written}="${escapeAttribute(value)}"`);
    }
    if (name === 'svg' && open.length === 0 && !attrs.some((a) => a.startsWith(' xmlns='))) attrs.unshift(' xmlns="http://www.w3.org/2000/svg"');
    if (selfClosing) out.push(`<${rawName}${attrs.join('')}/>`);
    else {
      out.push(`<${rawName}${attrs.join('')}>`);
      open.push({ name, raw: rawName });
    }
  }
  if (!sawRoot) return undefined;
  while (open.length > 0) out.push(`</${open.pop()!.raw}>`);
  return out.join('');
}
