/**
 * Column lineage over several hops, from fine-grained lineage: upstream, each hop asks the
 * previous hop's upstream datasets for the lineage of exactly the columns reached; downstream,
 * the datasets downstream (table lineage) are asked once and their edges followed from the start.
 */
import type { CallOptions, CatalogClient } from './client.js';
import type { ColumnLineageMapping, LineageDirection } from './types.js';

export interface ColumnLineageHop extends ColumnLineageMapping {
  downstream_dataset: string;
  /** Hops from the dataset asked about (1 = a direct edge). */
  level: number;
}

const key = (dataset: string, column: string) => `${dataset}\n${column}`;

export async function walkColumnLineage(
  client: CatalogClient,
  urn: string,
  params: { direction: LineageDirection; depth: number },
  opts: CallOptions = {},
): Promise<ColumnLineageHop[]> {
  return params.direction === 'UPSTREAM' ? walkUpstream(client, urn, params.depth, opts) : walkDownstream(client, urn, params.depth, opts);
}

async function walkUpstream(client: CatalogClient, urn: string, depth: number, opts: CallOptions): Promise<ColumnLineageHop[]> {
  const out: ColumnLineageHop[] = [];
  // Columns reached per dataset; at the start every column of the dataset counts.
  let frontier = new Map<string, Set<string> | 'all'>([[urn, 'all']]);
  const seen = new Set<string>();
  for (let level = 1; level <= depth && frontier.size > 0; level++) {
    const lineages = await client.getColumnLineages([...frontier.keys()], opts);
    const next = new Map<string, Set<string> | 'all'>();
    for (const [dataset, columns] of frontier) {
      for (const m of lineages.get(dataset)?.mappings ?? []) {
        if (columns !== 'all' && !columns.has(m.downstream_column)) continue;
        const edge = `${key(dataset, m.downstream_column)}\n${key(m.upstream_dataset, m.upstream_column)}`;
        if (seen.has(edge)) continue;
        seen.add(edge);
        out.push({ ...m, downstream_dataset: dataset, level });
        const reached = next.get(m.upstream_dataset);
        if (reached instanceof Set) reached.add(m.upstream_column);
        else next.set(m.upstream_dataset, new Set([m.upstream_column]));
      }
    }
    frontier = next;
  }
  return out;
}

async function walkDownstream(client: CatalogClient, urn: string, depth: number, opts: CallOptions): Promise<ColumnLineageHop[]> {
  const graph = await client.getLineage(urn, { direction: 'DOWNSTREAM', depth }, opts);
  const lineages = await client.getColumnLineages(
    graph.nodes.filter((n) => n.type === 'DATASET').map((n) => n.urn),
    opts,
  );
  const edges = [...lineages.entries()].flatMap(([dataset, l]) => l.mappings.map((m) => ({ ...m, downstream_dataset: dataset })));
  const out: ColumnLineageHop[] = [];
  let frontier = new Set<string>(['*']);
  const seen = new Set<string>();
  for (let level = 1; level <= depth && frontier.size > 0; level++) {
    const next = new Set<string>();
    for (const e of edges) {
      const from = key(e.upstream_dataset, e.upstream_column);
      const reached = level === 1 ? e.upstream_dataset === urn : frontier.has(from);
      const edge = `${from}\n${key(e.downstream_dataset, e.downstream_column)}`;
      if (!reached || seen.has(edge)) continue;
      seen.add(edge);
      out.push({ ...e, level });
      next.add(key(e.downstream_dataset, e.downstream_column));
    }
    frontier = next;
  }
  return out;
}
