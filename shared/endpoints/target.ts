/**
 * The per-request read (spec document 3, "Endpoint and script": binding and script write times
 * are read each request): a query for the binding and its script's current version, so a save or
 * a binding change is seen by the next request on every replica.
 *
 * Reads are coalesced (EndpointTargetReader): a request waits for the next query that STARTS
 * after it arrived, and one query answers every request waiting for it. Each request therefore
 * still sees everything committed before it arrived — the rule — while a busy replica sends one
 * query per round trip instead of one per request.
 *
 * The query is the cheap freshness check the spec allows: it reads the row versions (`xmin`, new
 * with every write to a row) of the binding, the script and its current version, and sends the
 * whole target only for a name whose versions differ from the ones this reader holds. An
 * unchanged endpoint costs a row of three short columns. Held targets are bounded by count and by
 * the size of their sources.
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

/** The enabled public endpoint `name` as the bot check sees it (its challenge bucket and origins), else undefined. */
export async function readPublicEndpoint(db: Db, name: string): Promise<{ rateLimit: number; allowedOrigins: string[] } | undefined> {
  const { rows } = await db.query<{ rate_limit: number; allowed_origins: string[] }>(
    `SELECT rate_limit, allowed_origins FROM endpoint_bindings WHERE endpoint = $1 AND enabled AND auth_mode = 'public'`,
    [name],
  );
  const row = rows[0];
  return row ? { rateLimit: row.rate_limit, allowedOrigins: row.allowed_origins } : undefined;
}

/** The versions of the binding's, the script's and the script version's rows: equal stamps, equal targets. */
const stampOf = `b.xmin::text || '.' || s.xmin::text || '.' || v.xmin::text`;

// `known` pairs each name with the stamp the reader holds ('' for none): a row whose stamp matches
// comes back without its target.
const targetsQuery = `SELECT b.endpoint, ${stampOf} AS stamp,
            CASE WHEN k.stamp = ${stampOf} THEN NULL
                 ELSE json_build_object('binding', row_to_json(b), 'name', s.name, 'state', s.state, 'current_version', s.current_version,
                                        'script_updated_at', s.updated_at, 'source', v.source, 'author_roles', v.author_roles, 'entry_points', v.entry_points)
            END AS target
       FROM unnest($1::text[], $2::text[]) AS k(endpoint, stamp)
       JOIN endpoint_bindings b ON b.endpoint = k.endpoint
       JOIN scripts s ON s.id = b.script_id
       JOIN script_versions v ON v.script_id = s.id AND v.number = s.current_version`;

/** A target as json_build_object writes it: timestamps as text, bigint as a number. */
interface TargetJson {
  binding: Omit<BindingRow, 'created_at' | 'updated_at' | 'max_memory_bytes'> & { created_at: string; updated_at: string; max_memory_bytes: number };
  name: string;
  state: string;
  current_version: number;
  script_updated_at: string;
  source: string;
  author_roles: string[];
  entry_points: string[];
}

/** A target as this reader keeps it, with the stamp it was read at. */
interface Stamped {
  stamp: string;
  target: EndpointTarget;
}

/**
 * The binding and script of each endpoint in `names` that has a binding (enabled or not), by
 * name: the kept target where its stamp is still current, else the one read now.
 */
async function readEndpointTargets(db: Db, names: readonly string[], kept: ReadonlyMap<string, Stamped> = new Map()): Promise<Map<string, Stamped>> {
  // Named: each connection plans it once (planning the join was most of its time).
  const { rows } = await db.query<{ endpoint: string; stamp: string; target: TargetJson | null }>({
    name: 'endpoint-targets',
    text: targetsQuery,
    values: [names, names.map((name) => kept.get(name)?.stamp ?? '')],
  });
  const read = new Map<string, Stamped>();
  for (const row of rows) {
    const target = row.target ? targetOf(row.target) : kept.get(row.endpoint)?.target;
    // A kept target is always there for a row sent without one (its stamp came from it).
    if (target) read.set(row.endpoint, { stamp: row.stamp, target });
  }
  return read;
}

function targetOf(row: TargetJson): EndpointTarget {
  const { binding } = row;
  return {
    binding: bindingOf({ ...binding, max_memory_bytes: String(binding.max_memory_bytes), created_at: new Date(binding.created_at), updated_at: new Date(binding.updated_at) }),
    script: {
      id: binding.script_id,
      name: row.name,
      state: row.state as ScriptState,
      version: row.current_version,
      source: row.source,
      authorRoles: row.author_roles,
      entryPoints: row.entry_points as EntryPoint[],
      updatedAt: new Date(row.script_updated_at),
    },
  };
}

interface Waiter {
  resolve: (target: EndpointTarget | undefined) => void;
  reject: (error: unknown) => void;
}

/** Endpoints whose targets a reader keeps, and their sources' characters in all (the least recently read go first). */
const keptTargets = 256;
const keptSourceChars = 8 * 1024 * 1024;

/** Coalesced per-request reads of endpoint targets: one query in flight, started after every request it answers arrived. */
export class EndpointTargetReader {
  readonly #db: Db;
  /** Requests that arrived since the query in flight started, by endpoint name. */
  #waiting = new Map<string, Waiter[]>();
  #reading = false;
  /** A start is queued for the end of this turn (#next). */
  #starting = false;
  /** The targets last read, by endpoint name, with their stamps. */
  readonly #kept = new Map<string, Stamped>();
  #keptChars = 0;

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

  /**
   * The target of `name` as last read, if this reader holds it: what a request may be served from
   * while its own read is in flight (requests.ts), never an answer by itself. The object stays the
   * same while its stamp does, so a read answering this very object confirms it unchanged.
   */
  held(name: string): EndpointTarget | undefined {
    return this.#kept.get(name)?.target;
  }

  #keep(name: string, read: Stamped | undefined): void {
    this.#forget(name);
    if (!read) return;
    this.#kept.set(name, read);
    this.#keptChars += read.target.script.source.length;
    while (this.#kept.size > keptTargets || this.#keptChars > keptSourceChars) this.#forget(this.#kept.keys().next().value!);
  }

  #forget(name: string): void {
    const kept = this.#kept.get(name);
    if (!kept) return;
    this.#kept.delete(name);
    this.#keptChars -= kept.target.script.source.length;
  }

  /**
   * Starts the next query at the end of this turn of the event loop (setImmediate), so every
   * request that arrived in the turn shares it — the turn's arrivals, its sandbox batch and its
   * query then leave together, and a busy replica sends fewer queries (docs/endpoints.md,
   * "Performance"). A start later than the arrival keeps the rule above.
   */
  #next(): void {
    if (this.#reading || this.#starting || this.#waiting.size === 0) return;
    this.#starting = true;
    setImmediate(() => {
      this.#starting = false;
      this.#start();
    });
  }

  /** Only #next calls it: no read is in flight, and requests wait. */
  #start(): void {
    const batch = this.#waiting;
    this.#waiting = new Map();
    this.#reading = true;
    readEndpointTargets(this.#db, [...batch.keys()], this.#kept).then(
      (targets) => {
        for (const [name, waiters] of batch) {
          const read = targets.get(name);
          this.#keep(name, read);
          for (const waiter of waiters) waiter.resolve(read?.target);
        }
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
