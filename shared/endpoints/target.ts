/**
 * The per-request read (spec document 3, "Endpoint and script": binding and script write times
 * are read each request): a query for the binding and its script's current version, so a save or
 * a binding change is seen by the next request on every replica.
 *
 * Reads are coalesced (EndpointTargetReader): a request waits for the next query that STARTS
 * after it arrived, and one query answers every request waiting for it. Each request therefore
 * still sees everything committed before it arrived — the rule — while a busy replica sends one
 * query per round trip instead of one per request.
 */
import type { Db } from '../db/index.js';
import type { EntryPoint, ScriptState } from '../scripts/index.js';
import type { AuthMode, EndpointBinding, EndpointMethod, EndpointTarget } from './types.js';

export interface BindingRow {
  endpoint: string;
  script_id: string;
  methods: string[];
  path: string;
  auth_mode: string;
  open_reads: boolean;
  timeout_seconds: number;
  max_memory_bytes: string;
  max_body_bytes: number;
  allowed_origins: string[];
  rate_limit: number;
  caller_rate_limit: number;
  enabled: boolean;
  created_by: string;
  created_at: Date;
  updated_by: string;
  updated_at: Date;
}

export const BINDING_COLUMNS =
  'b.endpoint, b.script_id, b.methods, b.path, b.auth_mode, b.open_reads, b.timeout_seconds, b.max_memory_bytes, b.max_body_bytes, ' +
  'b.allowed_origins, b.rate_limit, b.caller_rate_limit, b.enabled, b.created_by, b.created_at, b.updated_by, b.updated_at';

export function bindingOf(row: BindingRow): EndpointBinding {
  return {
    endpoint: row.endpoint,
    scriptId: row.script_id,
    methods: row.methods as EndpointMethod[],
    path: row.path,
    authMode: row.auth_mode as AuthMode,
    openReads: row.open_reads,
    timeoutSeconds: row.timeout_seconds,
    maxMemoryBytes: Number(row.max_memory_bytes),
    maxBodyBytes: row.max_body_bytes,
    allowedOrigins: row.allowed_origins,
    rateLimit: row.rate_limit,
    callerRateLimit: row.caller_rate_limit,
    enabled: row.enabled,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  };
}

interface TargetRow extends BindingRow {
  name: string;
  state: string;
  current_version: number;
  script_updated_at: Date;
  source: string;
  author_roles: string[];
  entry_points: string[];
}

/** The enabled public endpoint `name` as the bot check sees it (its challenge bucket and origins), else undefined. */
export async function readPublicEndpoint(db: Db, name: string): Promise<{ rateLimit: number; allowedOrigins: string[] } | undefined> {
  const { rows } = await db.query<{ rate_limit: number; allowed_origins: string[] }>(
    `SELECT rate_limit, allowed_origins FROM endpoint_bindings WHERE endpoint = $1 AND enabled AND auth_mode = 'public'`,
    [name],
  );
  const row = rows[0];
  return row ? { rateLimit: row.rate_limit, allowedOrigins: row.allowed_origins } : undefined;
}

const targetsQuery = `SELECT ${BINDING_COLUMNS}, s.name, s.state, s.current_version, s.updated_at AS script_updated_at, v.source, v.author_roles, v.entry_points
       FROM endpoint_bindings b
       JOIN scripts s ON s.id = b.script_id
       JOIN script_versions v ON v.script_id = s.id AND v.number = s.current_version
      WHERE b.endpoint = ANY($1::text[])`;

/** The binding and script of each endpoint in `names` that has a binding (enabled or not), by name. */
export async function readEndpointTargets(db: Db, names: readonly string[]): Promise<Map<string, EndpointTarget>> {
  // Named: each connection plans it once (planning the join was most of its time).
  const { rows } = await db.query<TargetRow>({ name: 'endpoint-targets', text: targetsQuery, values: [names] });
  return new Map(rows.map((row) => [row.endpoint, targetOf(row)]));
}

function targetOf(row: TargetRow): EndpointTarget {
  return {
    binding: bindingOf(row),
    script: {
      id: row.script_id,
      name: row.name,
      state: row.state as ScriptState,
      version: row.current_version,
      source: row.source,
      authorRoles: row.author_roles,
      entryPoints: row.entry_points as EntryPoint[],
      updatedAt: row.script_updated_at,
    },
  };
}

interface Waiter {
  resolve: (target: EndpointTarget | undefined) => void;
  reject: (error: unknown) => void;
}

/** Coalesced per-request reads of endpoint targets: one query in flight, started after every request it answers arrived. */
export class EndpointTargetReader {
  readonly #db: Db;
  /** Requests that arrived since the query in flight started, by endpoint name. */
  #waiting = new Map<string, Waiter[]>();
  #reading = false;

  constructor(db: Db) {
    this.#db = db;
  }

  /** The endpoint `name`'s binding and script as of a read started after this call, or undefined when no binding has that name. */
  read(name: string): Promise<EndpointTarget | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(name);
      if (waiters) waiters.push({ resolve, reject });
      else this.#waiting.set(name, [{ resolve, reject }]);
      this.#next();
    });
  }

  #next(): void {
    if (this.#reading || this.#waiting.size === 0) return;
    const batch = this.#waiting;
    this.#waiting = new Map();
    this.#reading = true;
    readEndpointTargets(this.#db, [...batch.keys()]).then(
      (targets) => {
        for (const [name, waiters] of batch) for (const waiter of waiters) waiter.resolve(targets.get(name));
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      },
    ).finally(() => {
      this.#reading = false;
      this.#next();
    });
  }
}
