/**
 * The portal's "Query as a table" panel (spec document 2, "Table registration"): what a file's
 * page shows of its registered tables — none, registered at the file's current version, at an
 * older version (which), still correcting, or correcting the file — with the name to query; where
 * it could be registered and under which name; and the register action itself, which is
 * manage_table's (register.ts: the same checks, refusals, correction and authority).
 */
import { engineOf, type TableDeps } from './deps.js';
import { registrationsOf } from './records.js';
import { libraryOf, registerTable, viewOf, type RegisterResult, type TableView } from './register.js';
import { defaultTableName, prefixedTableName, TableError, tableFormat, tablePrefix, type TableFormat } from './rules.js';
import type { ResourceActor, ResourceView } from '../resources/index.js';

/** Where the table stands against the file: at its current version, an older one, or not yet at any (its first correction runs). */
export type PanelTableStatus = 'current' | 'older' | 'correcting';

export interface PanelTable {
  /** The table name agents query (`sql_query` on `connection`). */
  table: string;
  /** The fully qualified name. */
  relation: string;
  connection: string;
  /** The version the table reads (null while its first correction runs). */
  version: number | null;
  /** The file's current version. */
  head_version: number;
  status: PanelTableStatus;
  follow: boolean;
  pinned: boolean;
  /** Corrects the file: later uploads with the same problems are corrected as new versions. */
  corrects: boolean;
  correcting: boolean;
  /** Where it stands, in words (as manage_table list says it). */
  state: string;
  registered_by: string;
  registered_at: string;
}

export interface PanelConnection {
  name: string;
  display_name: string;
  /** The one a registration without `connection` uses. */
  default: boolean;
}

export interface TablePanel {
  /** How the file is read as a table; null: it is not a CSV, TSV or NDJSON file. */
  format: TableFormat | null;
  /** Its registered tables, by connection and name (empty: none). */
  tables: PanelTable[];
  /** SQL connections with a scratch catalog, where a table can be registered. */
  connections: PanelConnection[];
  /** The name a registration without `table_name` gives this caller (the persona prefix added). */
  default_table_name: string | null;
  /** Whether this caller may register the file now, and if not, why. */
  register: { allowed: boolean; reason: string | null };
}

export interface PortalRegisterInput {
  /** The SQL connection; absent: the default one of `connections`. */
  connection?: string;
  table_name?: string;
  follow?: boolean;
  /** "Save a corrected copy and register". */
  correct?: boolean;
}

export interface PortalRegisterResult extends Omit<RegisterResult, 'table'> {
  table: PanelTable;
}

/** A registration as the panel shows it, from manage_table's view of it (over the file, so its head version is known). */
function panelTable(view: TableView, headVersion: number): PanelTable {
  const { resource: _file, ...rest } = view;
  const status: PanelTableStatus = view.version === null ? 'correcting' : view.version >= headVersion ? 'current' : 'older';
  return { ...rest, head_version: headVersion, status };
}

/** Connections whose scratch catalog can hold a table: the default connection first, then by name. */
export function tableConnections(deps: Pick<TableDeps, 'sql' | 'storage'>): PanelConnection[] {
  const usable: PanelConnection[] = [];
  for (const connection of deps.sql.connections.values()) {
    try {
      engineOf(deps, connection.name);
    } catch {
      continue;
    }
    usable.push({ name: connection.name, display_name: connection.displayName, default: false });
  }
  usable.sort((a, b) => (a.name === deps.sql.defaultConnection ? -1 : b.name === deps.sql.defaultConnection ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return usable.map((c, i) => ({ ...c, default: i === 0 }));
}

function suggestedName(resource: ResourceView, actor: ResourceActor): string | null {
  try {
    return prefixedTableName(tablePrefix(libraryOf(resource, actor), actor.activePersona), defaultTableName(resource.file_name));
  } catch {
    return null;
  }
}

/** The panel of a file the caller can open (`get` answers not found otherwise, as every by-id route). */
export async function tablePanel(deps: TableDeps, actor: ResourceActor, resourceId: string): Promise<TablePanel> {
  const resource = await deps.resources.get(actor, resourceId);
  const format = tableFormat(resource.file_name, resource.content_type) ?? null;
  const connections = tableConnections(deps);
  const tables = (await registrationsOf(deps.db, resource.id)).map((r) => panelTable(viewOf(r, resource), resource.version));
  const reason = !resource.allowed_actions.register
    ? 'only its uploader, an administrator of its library, or a platform administrator can register this file as a table'
    : format === null
      ? `"${resource.file_name}" is not a CSV, TSV or NDJSON file (by its extension or type): only those can be registered as tables`
      : connections.length === 0
        ? 'no SQL connection has a scratch catalog to register tables in (docs/sql.md, "Scratch catalog")'
        : null;
  return {
    format,
    tables,
    connections,
    default_table_name: format === null ? null : suggestedName(resource, actor),
    register: { allowed: reason === null, reason },
  };
}

/**
 * Registers the file as manage_table's register does (checks, refusals with row count and
 * columns, correction, authority), on `connection` or the default connection of the panel.
 */
export async function registerFromPanel(deps: TableDeps, actor: ResourceActor, resourceId: string, input: PortalRegisterInput): Promise<PortalRegisterResult> {
  // By id only (not found as every by-id route), never an address the id could spell.
  const resource = await deps.resources.get(actor, resourceId);
  const usable = tableConnections(deps);
  const named = input.connection?.trim();
  if (named && !usable.some((c) => c.name === named)) {
    throw new TableError('invalid', `"${named}" is not a SQL connection with a scratch catalog; register on ${usable.length > 0 ? `one of: ${usable.map((c) => c.name).join(', ')}` : 'none: no connection has one'}`);
  }
  const connection = named || usable[0]?.name;
  if (!connection) throw new TableError('unavailable', 'no SQL connection has a scratch catalog to register tables in (docs/sql.md, "Scratch catalog")');
  const result = await registerTable(deps, actor, {
    reference: resource.reference,
    connection,
    ...(input.table_name !== undefined ? { table_name: input.table_name } : {}),
    ...(input.follow !== undefined ? { follow: input.follow } : {}),
    ...(input.correct !== undefined ? { correct: input.correct } : {}),
  });
  const { table, ...rest } = result;
  return { ...rest, table: panelTable(table, table.resource.head_version ?? table.version ?? 0) };
}
