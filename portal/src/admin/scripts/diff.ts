/**
 * A line diff of two sources (Myers' O((N+M)·D) algorithm), for the script page's Versions: each
 * line kept, removed or added, with its line numbers; long runs of kept lines are folded around
 * the changes.
 */
export type DiffLine = { kind: 'same' | 'del' | 'add'; text: string; a?: number; b?: number } | { kind: 'skip'; count: number };

/** The edit script from `a` to `b` as lines (kept, removed, added), in order. */
export function diffLines(aText: string, bText: string): Array<Exclude<DiffLine, { kind: 'skip' }>> {
  const a = aText.split('\n');
  const b = bText.split('\n');
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max;
  let v: Int32Array = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  trace.push(v.slice());
  // Walk back through the saved frontiers.
  const out: Array<Exclude<DiffLine, { kind: 'skip' }>> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 2; d >= 0 && (x > 0 || y > 0); d--) {
    v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK]!;
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ kind: 'same', text: a[x - 1]!, a: x, b: y });
      x--;
      y--;
    }
    if (d === 0) break;
    if (x === prevX) out.push({ kind: 'add', text: b[y - 1]!, b: y });
    else out.push({ kind: 'del', text: a[x - 1]!, a: x });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    out.push({ kind: 'same', text: a[x - 1]!, a: x, b: y });
    x--;
    y--;
  }
  return out.reverse();
}

/** The diff with runs of more than 2·context kept lines folded into a `skip`. */
export function foldedDiff(aText: string, bText: string, context = 3): DiffLine[] {
  const lines = diffLines(aText, bText);
  const out: DiffLine[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.kind !== 'same') {
      out.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.kind === 'same') j++;
    const run = lines.slice(i, j);
    const head = i === 0 ? 0 : context;
    const tail = j === lines.length ? 0 : context;
    if (run.length > head + tail + 1) {
      out.push(...run.slice(0, head), { kind: 'skip', count: run.length - head - tail }, ...run.slice(run.length - tail));
    } else {
      out.push(...run);
    }
    i = j;
  }
  return out;
}
