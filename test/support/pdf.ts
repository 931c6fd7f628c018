/**
 * A minimal PDF writer for tests and the thumbnail benchmark: `pages` US-letter pages, each with
 * a heading, a few lines of text in Helvetica (a standard font: nothing embedded) and a filled
 * rectangle, cross-reference table and all, so any conforming reader opens it.
 */
export function simplePdf(pages: number, title = 'Quarterly report'): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ');
  add(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const lines = [`BT /F1 28 Tf 72 700 Td (${title} - page ${i + 1}) Tj ET`];
    for (let l = 0; l < 12; l++) lines.push(`BT /F1 12 Tf 72 ${650 - l * 18} Td (Line ${l + 1}: revenue grew in every region this quarter.) Tj ET`);
    lines.push('0.2 0.4 0.8 rg 72 200 468 160 re f');
    const stream = lines.join('\n');
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    add(`<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`);
  }
  return written(objects);
}

/**
 * A PDF of a few hundred bytes whose first page takes minutes to draw: form XObjects nested `depth`
 * deep, each drawing the next `fan` times (fan^depth strokes; 10^7 at 7 and 10). pdf.js renders
 * every use again, so it stands for the small file that holds a PDF thread until the deadline.
 */
export function nestedFormsPdf(depth = 7, fan = 10): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /X 5 0 R >> >> /Contents 4 0 R >>',
    '<< /Length 5 >>\nstream\n/X Do\nendstream',
  ];
  for (let level = 0; level < depth; level++) {
    const last = level === depth - 1;
    const body = last ? '0 0 m 1 1 l S' : Array.from({ length: fan }, () => '/X Do').join(' ');
    const resources = last ? '<< >>' : `<< /XObject << /X ${6 + level} 0 R >> >>`;
    objects.push(`<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources ${resources} /Length ${body.length} >>\nstream\n${body}\nendstream`);
  }
  return written(objects);
}

function written(objects: string[]): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
