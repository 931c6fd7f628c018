/** CSV as rows of cells (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes; CRLF or LF). */
export function parseCsv(text: string, maxRows = Infinity): { rows: string[][]; truncated: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const input = text.startsWith('\ufeff') ? text.slice(1) : text;
  const endRow = () => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = '';
  };
  while (i < input.length) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"') {
        if (input[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      endRow();
      if (c === '\r' && input[i + 1] === '\n') i++;
      if (rows.length > maxRows) return { rows: rows.slice(0, maxRows), truncated: true };
    } else cell += c;
    i++;
  }
  if (cell !== '' || row.length > 0) endRow();
  return { rows, truncated: false };
}
