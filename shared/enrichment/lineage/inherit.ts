/**
 * Lineage inheritance: completes the columns of one table from its upstream lineage, in the
 * order document 1 gives — the column's own metadata, then fine-grained column lineage (when
 * `prefer_column_lineage`), then table-level upstream lineage — up to `max_hops`. It has no timer
 * of its own: `semantic.lineage.timeout` is the enrichment middleware's deadline for the whole
 * enrichment (it starts before inheritance does, so a second timer of the same length here could
 * never fire first); the middleware's abort signal ends it.
 */
import {
  columnRenamer,
  findColumn,
  inheritFrom,
  kindsToFill,
  matchByName,
  maxDatasetsPerHop,
  maxHopsLimit,
  missingKinds,
  sameName,
  settled,
  type ColumnRenamer,
} from './rules.js';
import type {
  ColumnContext,
  InheritableField,
  LineageSettings,
  LineageSource,
  Provenance,
  TableRef,
  UpstreamLineage,
} from './types.js';

export interface InheritOptions {
  /**
   * The caller's deadline, required: inheritance has no timer of its own, so this is its only
   * bound. On abort, lookups in flight are dropped and inheritance rejects with the signal's reason.
   */
  signal: AbortSignal;
}

const noLineage: UpstreamLineage = { datasets: [], columns: [] };

/** A column reached through lineage: the dataset and the column name in it. */
interface ColumnRef {
  urn: string;
  column: string;
}

/**
 * For each column lacking a kind listed in `settings.inherit`, fills that kind from upstream.
 * Columns with their own metadata of a kind keep it. Extra fields of the caller's column type
 * pass through untouched. A lookup that fails counts as "no lineage there" (the columns stay as
 * they were).
 */
export async function inheritColumnContext<C extends ColumnContext>(
  source: LineageSource,
  table: TableRef,
  columns: C[],
  settings: LineageSettings,
  options: InheritOptions,
): Promise<C[]> {
  if (!settings.enabled) return columns;
  const open = columns.map((c) => missingKinds(c, settings.inherit));
  if (open.every((kinds) => kinds.length === 0)) return columns;

  const { signal } = options;
  signal.throwIfAborted();
  const run = new InheritanceRun(source, table, columns, open, settings, signal);
  // On abort the run stops where it is (no further lookups) and the caller gets the reason.
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      run.finish();
      reject(signal.reason);
    };
  });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([run.run(), aborted]);
    return run.finish();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** One inheritance pass: the columns as filled so far, and each dataset read at most once. */
class InheritanceRun<C extends ColumnContext> {
  readonly #columns: C[];
  readonly #upstreams = new Map<string, Promise<UpstreamLineage>>();
  readonly #schemas = new Map<string, Promise<ColumnContext[]>>();
  readonly #maxHops: number;
  readonly #rename: ColumnRenamer;
  #finished = false;

  constructor(
    private readonly source: LineageSource,
    private readonly table: TableRef,
    columns: C[],
    /** Per column, the kinds its own metadata lacks. */
    private readonly open: InheritableField[][],
    private readonly settings: LineageSettings,
    private readonly signal: AbortSignal,
  ) {
    this.#columns = [...columns];
    this.#maxHops = Math.min(Math.max(settings.max_hops, 1), maxHopsLimit);
    this.#rename = columnRenamer(table, settings.column_transforms);
  }

  async run(): Promise<void> {
    if (this.settings.prefer_column_lineage) await this.#columnLineage();
    await this.#tableLineage();
  }

  /** The columns as they are now; ends the run (later answers of abandoned lookups change nothing). */
  finish(): C[] {
    this.#finished = true;
    return [...this.#columns];
  }

  /** Indexes of the columns a further source could still change. */
  #pending(): number[] {
    return this.#columns.flatMap((c, i) => (settled(c, this.open[i]!, this.settings.conflict_resolution) ? [] : [i]));
  }

  #fill(i: number, from: ColumnContext, provenance: Provenance): void {
    if (this.#finished) return;
    const column = this.#columns[i]!;
    const kinds = kindsToFill(column, this.open[i]!, this.settings.conflict_resolution);
    if (kinds.length) this.#columns[i] = inheritFrom(column, from, provenance, kinds);
  }

  #lineageOf(urn: string): Promise<UpstreamLineage> {
    let found = this.#upstreams.get(urn);
    if (!found) {
      found = this.source.upstreams(urn, this.signal).catch(() => noLineage);
      this.#upstreams.set(urn, found);
    }
    return found;
  }

  #schemaOf(urn: string): Promise<ColumnContext[]> {
    let found = this.#schemas.get(urn);
    if (!found) {
      found = this.source
        .datasetColumns(urn, this.signal)
        .then((columns) => columns ?? [])
        .catch(() => []);
      this.#schemas.set(urn, found);
    }
    return found;
  }

  /** Reads the schemas of these datasets together, answering by URN. */
  async #schemasOf(urns: readonly string[]): Promise<Map<string, ColumnContext[]>> {
    const schemas = await Promise.all(urns.map((urn) => this.#schemaOf(urn)));
    return new Map(urns.map((urn, k) => [urn, schemas[k]!]));
  }

  /**
   * Fine-grained lineage, hop by hop: each pending column follows its column edges upstream;
   * at every hop the upstream columns reached fill it, in the catalog's edge order.
   */
  async #columnLineage(): Promise<void> {
    let frontier = new Map<number, ColumnRef[]>(
      this.#pending().map((i) => [i, [{ urn: this.table.urn, column: this.#columns[i]!.name }]]),
    );
    const seen = new Map<number, Set<string>>([...frontier.keys()].map((i) => [i, new Set([refKey(this.table.urn, this.#columns[i]!.name)])]));
    for (let hop = 1; hop <= this.#maxHops && frontier.size > 0; hop++) {
      const urns = distinct([...frontier.values()].flat().map((r) => r.urn)).slice(0, maxDatasetsPerHop);
      const answers = await Promise.all(urns.map((urn) => this.#lineageOf(urn)));
      const lineageOf = new Map(urns.map((urn, k) => [urn, answers[k]!]));
      if (this.#finished) return;

      const next = new Map<number, ColumnRef[]>();
      for (const [i, refs] of frontier) {
        const reached: ColumnRef[] = [];
        for (const ref of refs) {
          for (const edge of lineageOf.get(ref.urn)?.columns ?? []) {
            const key = refKey(edge.upstream.urn, edge.upstream.column);
            if (!sameName(edge.downstream, ref.column) || seen.get(i)!.has(key)) continue;
            seen.get(i)!.add(key);
            reached.push(edge.upstream);
          }
        }
        if (reached.length) next.set(i, reached);
      }
      const schemas = await this.#schemasOf(distinct([...next.values()].flat().map((r) => r.urn)).slice(0, maxDatasetsPerHop));
      if (this.#finished) return;
      for (const [i, refs] of next) {
        for (const ref of refs) {
          const upstream = findColumn(schemas.get(ref.urn) ?? [], ref.column);
          if (upstream) this.#fill(i, upstream, { urn: ref.urn, column: upstream.name, hops: hop, match_method: 'column_lineage' });
        }
      }
      const pending = new Set(this.#pending());
      frontier = new Map([...next].filter(([i]) => pending.has(i)));
    }
  }

  /**
   * Table-level lineage, level by level up to `max_hops`: every pending column is matched by
   * name (then by its transformed name) against each upstream dataset of the level, nearer
   * levels first and, within a level, in the catalog's order.
   */
  async #tableLineage(): Promise<void> {
    const visited = new Set([this.table.urn]);
    let level = [this.table.urn];
    for (let hop = 1; hop <= this.#maxHops && level.length > 0; hop++) {
      if (this.#pending().length === 0) return;
      const lineages = await Promise.all(level.map((urn) => this.#lineageOf(urn)));
      if (this.#finished) return;
      const next = distinct(lineages.flatMap((l) => l.datasets))
        .filter((urn) => !visited.has(urn))
        .slice(0, maxDatasetsPerHop);
      for (const urn of next) visited.add(urn);
      const schemas = await this.#schemasOf(next);
      if (this.#finished) return;
      for (const urn of next) {
        const upstream = schemas.get(urn)!;
        for (const i of this.#pending()) {
          const name = this.#columns[i]!.name;
          const match = matchByName(name, this.#rename(name), upstream);
          if (match) this.#fill(i, match.column, { urn, column: match.column.name, hops: hop, match_method: match.method });
        }
      }
      level = next;
    }
  }
}

const refKey = (urn: string, column: string) => `${urn}\n${column.toLowerCase()}`;
const distinct = (values: readonly string[]) => [...new Set(values)];
