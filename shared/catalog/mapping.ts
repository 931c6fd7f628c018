/**
 * DataHub's GraphQL answers → the catalog shapes of types.ts. Pure functions over the selections
 * the operation documents make; a field the catalog left null is omitted, never sent as null.
 */
import type {
  CatalogEntity,
  ColumnLineage,
  DataProduct,
  DatasetContext,
  DatasetSchema,
  Deprecation,
  EditableState,
  Domain,
  GlossaryTerm,
  GlossaryTermRef,
  HealthCheck,
  LineageDirection,
  LineageGraph,
  Owner,
  SavedQuery,
  SchemaField,
  SchemaMetadata,
  SearchEntity,
  Tag,
} from './types.js';

/** A loosely typed GraphQL object: every field read is checked. */
export type Gql = Record<string, unknown>;

const obj = (v: unknown): Gql | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Gql) : undefined);
const arr = (v: unknown): Gql[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Gql => x !== undefined) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Drops undefined fields and empty arrays, so results carry only what the catalog holds. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as T;
}

/** The last segment of a URN's key, for entities that come without a name (`urn:li:tag:PII` → `PII`). */
export function urnName(urn: string): string {
  const key = urn.replace(/^urn:li:[^:]+:/, '');
  const datasetName = /^\(urn:li:dataPlatform:[^,]+,([^,]+),[^)]+\)$/.exec(key);
  return datasetName?.[1] ?? key;
}

export function properties(entries: unknown): Record<string, string> | undefined {
  const list = arr(entries);
  if (list.length === 0) return undefined;
  return Object.fromEntries(list.map((e) => [String(e.key), String(e.value ?? '')]));
}

export function owners(ownership: unknown): Owner[] | undefined {
  const list = arr(obj(ownership)?.owners).flatMap((o): Owner[] => {
    const who = obj(o.owner);
    const urn = str(who?.urn);
    if (!who || !urn) return [];
    const props = obj(who.properties);
    const isGroup = who.__typename === 'CorpGroup';
    return [
      compact({
        urn,
        type: isGroup ? 'CORP_GROUP' : 'CORP_USER',
        name: str(props?.displayName) ?? str(props?.fullName) ?? str(who.username) ?? str(who.name),
        email: str(props?.email),
        ownership_type: str(obj(obj(o.ownershipType)?.info)?.name) ?? str(obj(o.ownershipType)?.urn),
      }),
    ];
  });
  return list.length ? list : undefined;
}

export function tags(globalTags: unknown): Tag[] | undefined {
  const list = arr(obj(globalTags)?.tags).flatMap((a): Tag[] => {
    const t = obj(a.tag);
    const urn = str(t?.urn);
    if (!urn) return [];
    const p = obj(t?.properties);
    return [compact({ urn, name: str(p?.name) ?? urnName(urn), description: str(p?.description) })];
  });
  return list.length ? list : undefined;
}

export function glossaryTerms(terms: unknown): GlossaryTermRef[] | undefined {
  const list = arr(obj(terms)?.terms).flatMap((a): GlossaryTermRef[] => {
    const t = obj(a.term);
    const urn = str(t?.urn);
    if (!urn) return [];
    const p = obj(t?.properties);
    return [compact({ urn, name: str(p?.name) ?? str(t?.hierarchicalName) ?? urnName(urn), description: str(p?.description) })];
  });
  return list.length ? list : undefined;
}

export function domain(association: unknown): Domain | undefined {
  const d = obj(obj(association)?.domain);
  const urn = str(d?.urn);
  if (!d || !urn) return undefined;
  const p = obj(d.properties);
  return compact({ urn, name: str(p?.name) ?? urnName(urn), description: str(p?.description) });
}

export function deprecation(d: unknown): Deprecation | undefined {
  const o = obj(d);
  if (!o || o.deprecated !== true) return undefined;
  return compact({ deprecated: true, note: str(o.note), actor: str(o.actor), decommission_time: num(o.decommissionTime) });
}

export function health(h: unknown): HealthCheck[] | undefined {
  const list = arr(h).map((c) => compact({ type: String(c.type), status: c.status as HealthCheck['status'], message: str(c.message) }));
  return list.length ? list : undefined;
}

/** Name and description of any entity from the EntitySummary selection (edited description first). */
export function summary(e: Gql): { urn: string; type: string; name: string; platform?: string; description?: string } {
  const urn = String(e.urn);
  const p = obj(e.properties);
  return compact({
    urn,
    type: String(e.type),
    name: str(p?.name) ?? str(e.name) ?? str(p?.displayName) ?? str(e.hierarchicalName) ?? str(e.username) ?? urnName(urn),
    platform: str(obj(e.platform)?.name),
    description: str(obj(e.editableProperties)?.description) ?? str(p?.description),
  });
}

export function entity(e: Gql): CatalogEntity {
  const p = obj(e.properties);
  return compact({
    ...summary(e),
    owners: owners(e.ownership),
    tags: tags(e.tags),
    glossary_terms: glossaryTerms(e.glossaryTerms),
    domain: domain(e.domain),
    sub_types: Array.isArray(obj(e.subTypes)?.typeNames) ? (obj(e.subTypes)?.typeNames as string[]) : undefined,
    deprecation: deprecation(e.deprecation),
    properties: properties(p?.customProperties),
    health: health(e.health),
    created: num(p?.created),
    last_modified: num(obj(p?.lastModified)?.time),
  });
}

export function searchEntity(result: Gql): SearchEntity {
  const e = obj(result.entity) ?? {};
  const matched = arr(result.matchedFields).map((m) => ({ name: String(m.name), value: String(m.value) }));
  return compact({ ...summary(e), owners: owners(e.ownership), tags: tags(e.tags), domain: domain(e.domain), matched_fields: matched });
}

/** Ingested schema fields with the catalog's edits laid over them: edited description wins, tags and terms unite. */
export function schemaFields(schemaMetadata: Gql, editable: Gql | undefined): SchemaField[] {
  const edits = new Map(arr(editable?.editableSchemaFieldInfo).map((e) => [String(e.fieldPath), e]));
  const union = <T extends { urn: string }>(a: T[] | undefined, b: T[] | undefined): T[] | undefined => {
    const all = [...(a ?? []), ...(b ?? [])];
    const seen = new Set<string>();
    const out = all.filter((x) => !seen.has(x.urn) && seen.add(x.urn));
    return out.length ? out : undefined;
  };
  return arr(schemaMetadata.fields).map((f) => {
    const edit = edits.get(String(f.fieldPath));
    return compact({
      field_path: String(f.fieldPath),
      type: String(f.type),
      native_type: str(f.nativeDataType),
      description: str(edit?.description) ?? str(f.description),
      nullable: f.nullable === true,
      is_partition_key: f.isPartitioningKey === true ? true : undefined,
      tags: union(tags(f.tags), tags(edit?.tags)),
      glossary_terms: union(glossaryTerms(f.glossaryTerms), glossaryTerms(edit?.glossaryTerms)),
      json_path: str(f.jsonPath),
    });
  });
}

export function schemaMetadata(sm: Gql, editable: Gql | undefined): SchemaMetadata {
  const ps = obj(sm.platformSchema);
  const fieldPaths = (v: unknown) => arr(v).map((f) => String(f.fieldPath));
  return compact({
    name: str(sm.name),
    platform_schema: str(ps?.schema) ?? (ps?.keySchema !== undefined ? JSON.stringify({ key: ps.keySchema, value: ps.valueSchema }) : undefined),
    version: num(sm.version),
    fields: schemaFields(sm, editable),
    primary_keys: Array.isArray(sm.primaryKeys) ? (sm.primaryKeys as string[]) : undefined,
    foreign_keys: arr(sm.foreignKeys).map((fk) =>
      compact({ name: str(fk.name), source_fields: fieldPaths(fk.sourceFields), foreign_dataset: String(obj(fk.foreignDataset)?.urn ?? ''), foreign_fields: fieldPaths(fk.foreignFields) }),
    ),
    hash: str(sm.hash),
  });
}

export function datasetContext(d: Gql): DatasetContext {
  const s = summary(d);
  return compact({
    urn: s.urn,
    name: s.name,
    platform: s.platform,
    description: s.description,
    owners: owners(d.ownership),
    tags: tags(d.tags),
    glossary_terms: glossaryTerms(d.glossaryTerms),
    domain: domain(d.domain),
    deprecation: deprecation(d.deprecation),
    health: health(d.health),
  });
}

export function datasetSchema(d: Gql): DatasetSchema {
  const sm = obj(d.schemaMetadata);
  return compact({ schema: sm ? schemaMetadata(sm, obj(d.editableSchemaMetadata)) : undefined, dataset: datasetContext(d) });
}

/**
 * searchAcrossLineage results → nodes within `depth` hops (level = degree) and the distinct edges
 * along their paths, oriented from upstream to downstream. A path may or may not start with the
 * start entity (servers differ); it is made to.
 */
export function lineageGraph(start: string, direction: LineageDirection, depth: number, results: Gql[]): LineageGraph {
  const nodes = results
    .filter((r) => typeof r.degree === 'number' && r.degree <= depth)
    .map((r) => ({ ...summary(obj(r.entity) ?? {}), level: r.degree as number }));
  const kept = new Set(nodes.map((n) => n.urn));
  const edges = new Map<string, { source: string; target: string }>();
  for (const r of results) {
    if (!kept.has(String(obj(r.entity)?.urn))) continue;
    for (const p of arr(r.paths)) {
      const urns = arr(p.path).map((e) => String(e.urn));
      if (urns[0] !== start) urns.unshift(start);
      for (let i = 0; i + 1 < urns.length && i < depth; i++) {
        const [from, to] = [urns[i] as string, urns[i + 1] as string];
        const [source, target] = direction === 'UPSTREAM' ? [to, from] : [from, to];
        edges.set(`${source}\n${target}`, { source, target });
      }
    }
  }
  return { start, nodes, edges: [...edges.values()], direction, depth };
}

export function columnLineage(d: Gql): ColumnLineage {
  const mappings = arr(d.fineGrainedLineages).flatMap((l) =>
    arr(l.downstreams).flatMap((down) =>
      arr(l.upstreams).map((up) =>
        compact({
          downstream_column: String(down.path),
          upstream_dataset: String(up.urn),
          upstream_column: String(up.path),
          transform: str(l.transformOperation),
          query: str(l.query),
        }),
      ),
    ),
  );
  return { dataset_urn: String(d.urn), mappings };
}

export function savedQuery(q: Gql): SavedQuery {
  const p = obj(q.properties);
  return compact({
    urn: str(q.urn),
    name: str(p?.name),
    statement: String(obj(p?.statement)?.value ?? ''),
    description: str(p?.description),
    source: str(p?.source),
    created_by: str(obj(p?.created)?.actor),
    created: num(obj(p?.created)?.time),
  });
}

export function glossaryTerm(t: Gql): GlossaryTerm {
  const p = obj(t.properties);
  const parent = arr(obj(t.parentNodes)?.nodes)[0];
  const related = arr(obj(t.relationships)?.relationships).flatMap((r) => {
    const e = obj(r.entity);
    const urn = str(e?.urn);
    return urn ? [{ urn, name: str(obj(e?.properties)?.name) ?? str(e?.hierarchicalName) ?? urnName(urn), relation_type: String(r.type) }] : [];
  });
  return compact({
    urn: String(t.urn),
    name: str(p?.name) ?? str(t.hierarchicalName) ?? urnName(String(t.urn)),
    description: str(p?.description),
    parent_node: str(parent?.urn),
    owners: owners(t.ownership),
    related_terms: related,
    properties: properties(p?.customProperties),
  });
}

export function domainEntry(d: Gql): Domain {
  const p = obj(d.properties);
  return compact({
    urn: String(d.urn),
    name: str(p?.name) ?? urnName(String(d.urn)),
    description: str(p?.description),
    parent_domain: str(arr(obj(d.parentDomains)?.domains)[0]?.urn),
    owners: owners(d.ownership),
    entity_count: num(obj(d.entities)?.total),
  });
}

export function dataProduct(d: Gql): DataProduct {
  const p = obj(d.properties);
  return compact({
    urn: String(d.urn),
    name: str(p?.name) ?? urnName(String(d.urn)),
    description: str(p?.description),
    domain: domain(d.domain),
    owners: owners(d.ownership),
    assets: arr(obj(d.entities)?.searchResults).map((r) => String(obj(r.entity)?.urn)),
    properties: properties(p?.customProperties),
  });
}

/**
 * The edits of a dataset (no field path) or of one column from GetEditableState. A column never
 * edited has no description, tags or terms of the catalog's own.
 */
export function editableState(entity: Gql, fieldPath?: string): EditableState {
  const urnsOf = (list: unknown, key: 'tags' | 'terms', inner: 'tag' | 'term') =>
    arr(obj(list)?.[key]).flatMap((a) => {
      const urn = str(obj(a[inner])?.urn);
      return urn ? [urn] : [];
    });
  const of = (o: Gql | undefined) => ({ tags: urnsOf(o?.tags, 'tags', 'tag'), glossary_terms: urnsOf(o?.glossaryTerms, 'terms', 'term') });
  if (fieldPath !== undefined) {
    const fields = arr(obj(entity.editableSchemaMetadata)?.editableSchemaFieldInfo);
    const field = fields.find((f) => f.fieldPath === fieldPath);
    return { description: typeof field?.description === 'string' ? field.description : null, ...of(field), links: [] };
  }
  const description = obj(entity.editableProperties)?.description;
  const links = arr(obj(entity.institutionalMemory)?.elements).flatMap((l) => (typeof l.url === 'string' ? [{ url: l.url, label: typeof l.label === 'string' ? l.label : '' }] : []));
  return { description: typeof description === 'string' ? description : null, ...of(entity), links };
}
