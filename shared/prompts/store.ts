/**
 * The prompt service over Postgres (migrations/0032_prompts.sql): prompts in a scope, their
 * attachments in an authored order, the authority and Attachment rules of rules.ts. Every write is
 * one transaction that locks the prompt's row, so concurrent attaches never share a position and a
 * scope change sees the attachments it checks. Resource lookups that need the caller's authority
 * (the resource service) run before the transaction: in embedded mode nothing may wait on a second
 * connection inside one (docs/architecture.md). People's writes through the portal are audited
 * (tool `portal_prompt_*`); agents' are tool calls, audited by the tool-call audit.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PlatformConfig } from '../config/index.js';
import { uuidv7 } from '../crypto/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { publishPromptChange } from './change-feed.js';
import { formatLibrary, libraryFromKey, recordPersonEvent, referenceOf, ResourceError, type ResourceService } from '../resources/index.js';
import {
  attachmentFits,
  contentProblem,
  descriptionProblem,
  formatScope,
  MAX_ATTACHMENTS,
  MAX_PROMPTS_PER_OWNER,
  mayPrompt,
  narrowerRefusal,
  normalizeArguments,
  promptNameProblem,
  requestedScope,
  resourceLibrary,
  scopeLibrary,
  scopeTargets,
} from './rules.js';
import {
  PromptError,
  type AttachmentView,
  type CreatePromptInput,
  type PromptActor,
  type PromptArgument,
  type PromptScope,
  type PromptService,
  type PromptView,
  type UpdatePromptInput,
} from './types.js';

export interface PromptServiceDeps {
  config: PlatformConfig;
  db: Db;
  /** Opens attached resources as the caller (existence, authority, current name and library). */
  resources: Pick<ResourceService, 'get' | 'resolve'>;
  /** Names taken by operator, prompts_dir and workflow prompts: a stored prompt may not shadow them. */
  reservedNames?: () => ReadonlySet<string>;
  clock?: () => Date;
}

interface PromptRow {
  id: string;
  scope: PromptScope;
  scope_key: string;
  owner: string;
  owner_email: string | null;
  name: string;
  description: string;
  content: string;
  arguments: PromptArgument[];
  created_at: Date;
  updated_at: Date;
}

interface AttachmentRow {
  prompt_id: string;
  resource_id: string;
  position: number;
  name: string;
  exists: boolean;
}

type Client = pg.PoolClient;

export const PROMPT_REFERENCE_PREFIX = 'mcp:prompt:';

const libraryOf = (row: Pick<PromptRow, 'scope' | 'scope_key'>) => scopeLibrary(row.scope, row.scope_key);

/** Visible to the actor (the `see` row as SQL): own personal prompts, member personas', shared. */
const visibleSql = `((p.scope = 'personal' AND p.scope_key = $1 AND NOT $3) OR (p.scope = 'persona' AND p.scope_key = ANY($2::text[])) OR p.scope = 'shared')`;
/** More specific first: a personal prompt's name hides a persona or shared one of the same name. */
const precedenceSql = `CASE p.scope WHEN 'personal' THEN 0 WHEN 'persona' THEN 1 ELSE 2 END`;

export function createPromptService(deps: PromptServiceDeps): PromptService {
  const { db, config } = deps;
  const clock = deps.clock ?? (() => new Date());
  const notFound = () => new PromptError('not_found', 'prompt not found');

  async function attachmentsOf(actor: PromptActor, ids: readonly string[]): Promise<Map<string, AttachmentView[]>> {
    const out = new Map<string, AttachmentView[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const res = await db.query<AttachmentRow>(
      // The resources table is read for existence alone: a forced delete leaves the attachment, reported missing.
      `SELECT a.prompt_id, a.resource_id, a.position, a.name, EXISTS (SELECT 1 FROM resources r WHERE r.id = a.resource_id) AS exists
         FROM prompt_attachments a WHERE a.prompt_id = ANY($1::text[]) ORDER BY a.prompt_id, a.position`,
      [ids],
    );
    for (const row of res.rows) out.get(row.prompt_id)!.push(await attachmentView(actor, row));
    return out;
  }

  async function attachmentView(actor: PromptActor, row: AttachmentRow): Promise<AttachmentView> {
    const base = { resource_id: row.resource_id, reference: referenceOf(row.resource_id), position: row.position, name: row.name };
    if (!row.exists) return { ...base, missing: true, readable: false };
    try {
      const r = await deps.resources.get(actor, row.resource_id);
      return { ...base, name: r.display_name, missing: false, readable: true, uri: r.uri, library: r.library, content_type: r.content_type, size: r.size };
    } catch (error) {
      if (!(error instanceof ResourceError)) throw error;
      return { ...base, missing: false, readable: false };
    }
  }

  function toView(actor: PromptActor, row: PromptRow, attachments: AttachmentView[]): PromptView {
    const library = libraryOf(row);
    const change = mayPrompt(actor, 'change', { library, owner: row.owner });
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      content: row.content,
      arguments: row.arguments,
      scope: row.scope,
      ...(row.scope === 'persona' ? { persona: row.scope_key } : {}),
      owner: { subject: row.owner, ...(row.owner_email ? { email: row.owner_email } : {}) },
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      reference: `${PROMPT_REFERENCE_PREFIX}${row.id}`,
      attachments,
      allowed_actions: { change, attach: change, scopes: change ? scopeTargets(actor, library) : [] },
    };
  }

  async function views(actor: PromptActor, rows: PromptRow[]): Promise<PromptView[]> {
    const attachments = await attachmentsOf(actor, rows.map((r) => r.id));
    return rows.map((r) => toView(actor, r, attachments.get(r.id) ?? []));
  }

  async function view(actor: PromptActor, row: PromptRow): Promise<PromptView> {
    return (await views(actor, [row]))[0]!;
  }

  /** The row when the caller may open it; not_found otherwise (as for one that does not exist). */
  async function openable(actor: PromptActor, id: string, q: Db | Client = db, lock = false): Promise<PromptRow> {
    const res = await q.query<PromptRow>(`SELECT * FROM prompts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    const row = res.rows[0];
    if (!row || !mayPrompt(actor, 'open', { library: libraryOf(row) })) throw notFound();
    return row;
  }

  async function changeable(actor: PromptActor, id: string, q: Db | Client = db, lock = false): Promise<PromptRow> {
    const row = await openable(actor, id, q, lock);
    if (!mayPrompt(actor, 'change', { library: libraryOf(row), owner: row.owner })) {
      throw new PromptError('forbidden', 'only the prompt\'s owner or an administrator of its scope may change it');
    }
    return row;
  }

  function checkName(name: string): void {
    const problem = promptNameProblem(name);
    if (problem) throw new PromptError('invalid', problem);
    if (deps.reservedNames?.().has(name)) throw new PromptError('conflict', `the name "${name}" is an operator or workflow prompt's; choose another`);
  }

  function checkText(input: { content?: string | undefined; description?: string | undefined }): void {
    const problem = (input.content !== undefined ? contentProblem(input.content) : undefined) ?? (input.description !== undefined ? descriptionProblem(input.description) : undefined);
    if (problem) throw new PromptError('invalid', problem);
  }

  async function recordEvent(actor: PromptActor, tool: string, parameters: Record<string, unknown>, q: Client): Promise<void> {
    await recordPersonEvent(q, config, actor, { tool, parameters }, clock());
  }

  const listeners = new Set<() => void>();
  const changeOrigin = randomUUID();

  /** Runs a write, announced to every replica on commit (change-feed.ts); tells this process's onChange listeners after it commits. */
  async function write<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    try {
      const result = await withTransaction(db, async (client) => {
        const done = await fn(client);
        await publishPromptChange(client, changeOrigin);
        return done;
      });
      for (const listener of listeners) listener();
      return result;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new PromptError('conflict', 'a prompt of that name already exists in that scope');
      throw error;
    }
  }

  async function reread(actor: PromptActor, id: string): Promise<PromptView> {
    return view(actor, await openable(actor, id));
  }

  /** Rewrites positions 0..n-1 in the order given (the unique position constraint is checked at commit). */
  async function writeOrder(client: Client, promptId: string, resourceIds: readonly string[], now: Date): Promise<void> {
    await client.query(
      `UPDATE prompt_attachments a SET position = o.n - 1 FROM unnest($2::text[]) WITH ORDINALITY AS o(id, n)
        WHERE a.prompt_id = $1 AND a.resource_id = o.id`,
      [promptId, resourceIds],
    );
    await client.query(`UPDATE prompts SET updated_at = $2 WHERE id = $1`, [promptId, now]);
  }

  async function orderOf(client: Client, promptId: string): Promise<string[]> {
    const res = await client.query<{ resource_id: string }>(`SELECT resource_id FROM prompt_attachments WHERE prompt_id = $1 ORDER BY position`, [promptId]);
    return res.rows.map((r) => r.resource_id);
  }

  return {
    async list(actor, query = {}) {
      if (query.filter === 'visible') {
        const res = await db.query<PromptRow>(
          `SELECT p.* FROM prompts p WHERE ${visibleSql} ORDER BY ${precedenceSql}, p.scope_key, p.name`,
          [actor.subject, [...actor.personas], actor.authType === 'anonymous'],
        );
        return views(actor, res.rows);
      }
      const res = await db.query<PromptRow>(`SELECT * FROM prompts WHERE owner = $1 ORDER BY name, scope, scope_key`, [actor.subject]);
      return views(actor, res.rows);
    },

    async get(actor, id) {
      return reread(actor, id);
    },

    async byName(actor, name) {
      const res = await db.query<PromptRow>(
        `SELECT p.* FROM prompts p WHERE p.name = $4 AND ${visibleSql} ORDER BY ${precedenceSql}, p.scope_key LIMIT 1`,
        [actor.subject, [...actor.personas], actor.authType === 'anonymous', name],
      );
      return res.rows[0] ? view(actor, res.rows[0]) : undefined;
    },

    async create(actor, input: CreatePromptInput) {
      const { scope, key } = requestedScope(actor, input.scope, input.persona);
      const library = scopeLibrary(scope, key);
      if (!mayPrompt(actor, 'create', { library })) {
        throw new PromptError('forbidden', `not allowed to create prompts in ${formatScope(scope, key)}: personal prompts are their owner's, persona prompts need the role persona-admin:<name>, shared prompts a platform administrator`);
      }
      checkName(input.name);
      checkText(input);
      const args = normalizeArguments(input.arguments);
      const now = clock();
      const id = uuidv7();
      await write(async (client) => {
        // One person's prompts are bounded; the count is taken under a per-owner lock.
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('prompts-owner:' || $1))`, [actor.subject]);
        const count = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM prompts WHERE owner = $1`, [actor.subject]);
        if ((count.rows[0]?.n ?? 0) >= MAX_PROMPTS_PER_OWNER) throw new PromptError('limit', `you have ${MAX_PROMPTS_PER_OWNER} prompts, the most one person may create; delete some first`);
        await client.query(
          `INSERT INTO prompts (id, scope, scope_key, owner, owner_email, name, description, content, arguments, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
          [id, scope, key, actor.subject, actor.email ?? null, input.name, input.description?.trim() ?? '', input.content, JSON.stringify(args), now],
        );
        await recordEvent(actor, 'portal_prompt_create', { prompt_id: id, name: input.name, scope: formatScope(scope, key) }, client);
      });
      return reread(actor, id);
    },

    async update(actor, id, input: UpdatePromptInput) {
      if (input.name !== undefined) checkName(input.name);
      checkText(input);
      const args = input.arguments !== undefined ? normalizeArguments(input.arguments) : undefined;
      await write(async (client) => {
        const row = await changeable(actor, id, client, true);
        let scope = row.scope;
        let key = row.scope_key;
        if (input.scope !== undefined || input.persona !== undefined) {
          // The new scope's key: personal stays its owner's (an administrator moving it keeps the owner).
          const target = requestedScope(actor, input.scope ?? row.scope, input.persona);
          scope = target.scope;
          key = target.scope === 'personal' ? row.owner : target.key;
          const to = scopeLibrary(scope, key);
          if (scope !== row.scope || key !== row.scope_key) {
            if (!mayPrompt(actor, 'create', { library: to })) throw new PromptError('forbidden', `not allowed to move prompts to ${formatScope(scope, key)}`);
            await checkAttachmentsFit(client, row, to);
          }
        }
        await client.query(
          `UPDATE prompts SET scope = $2, scope_key = $3, name = $4, description = $5, content = $6, arguments = $7, updated_at = $8 WHERE id = $1`,
          [id, scope, key, input.name ?? row.name, input.description?.trim() ?? row.description, input.content ?? row.content, JSON.stringify(args ?? row.arguments), clock()],
        );
        await recordEvent(actor, 'portal_prompt_update', { prompt_id: id, fields: Object.keys(input), scope: formatScope(scope, key) }, client);
      });
      return reread(actor, id);
    },

    async delete(actor, id) {
      await write(async (client) => {
        await changeable(actor, id, client, true);
        await client.query(`DELETE FROM prompts WHERE id = $1`, [id]);
        await recordEvent(actor, 'portal_prompt_delete', { prompt_id: id }, client);
      });
    },

    async attach(actor, id, resourceId, position) {
      // Authority first, so a caller who may not change the prompt learns nothing of the resource.
      const before = await changeable(actor, id);
      const resource = await openResource(actor, resourceId);
      if (!attachmentFits(resourceLibrary(resource.library), libraryOf(before))) {
        throw narrowerRefusal({ id: resource.id, name: resource.display_name, library: resource.library }, libraryOf(before), undefined);
      }
      await write(async (client) => {
        const row = await changeable(actor, id, client, true);
        // The scope may have changed since the check above: check again under the lock.
        if (row.scope !== before.scope || row.scope_key !== before.scope_key) {
          throw new PromptError('conflict', 'the prompt moved to another scope meanwhile; try again');
        }
        const order = (await orderOf(client, id)).filter((r) => r !== resource.id);
        if (order.length >= MAX_ATTACHMENTS) throw new PromptError('limit', `a prompt carries at most ${MAX_ATTACHMENTS} attachments`);
        const at = position === undefined ? order.length : Math.max(0, Math.min(position, order.length));
        order.splice(at, 0, resource.id);
        const now = clock();
        await client.query(
          `INSERT INTO prompt_attachments (prompt_id, resource_id, position, name, attached_by, attached_at) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (prompt_id, resource_id) DO UPDATE SET name = EXCLUDED.name`,
          [id, resource.id, order.length + MAX_ATTACHMENTS, resource.display_name, actor.subject, now],
        );
        await writeOrder(client, id, order, now);
        await recordEvent(actor, 'portal_prompt_attach', { prompt_id: id, resource_id: resource.id, position: at }, client);
      });
      return reread(actor, id);
    },

    async detach(actor, id, resourceId) {
      await write(async (client) => {
        await changeable(actor, id, client, true);
        const removed = await client.query(`DELETE FROM prompt_attachments WHERE prompt_id = $1 AND resource_id = $2`, [id, resourceId]);
        if (removed.rowCount === 0) throw new PromptError('not_found', `resource ${resourceId} is not attached to this prompt`);
        await writeOrder(client, id, await orderOf(client, id), clock());
        await recordEvent(actor, 'portal_prompt_detach', { prompt_id: id, resource_id: resourceId }, client);
      });
      return reread(actor, id);
    },

    async reorder(actor, id, resourceIds) {
      await write(async (client) => {
        await changeable(actor, id, client, true);
        const current = await orderOf(client, id);
        const same = resourceIds.length === current.length && new Set(resourceIds).size === resourceIds.length && resourceIds.every((r) => current.includes(r));
        if (!same) throw new PromptError('invalid', 'the new order must name every attached resource exactly once');
        await writeOrder(client, id, resourceIds, clock());
        await recordEvent(actor, 'portal_prompt_reorder', { prompt_id: id, resource_ids: resourceIds }, client);
      });
      return reread(actor, id);
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    changeOrigin,
  };

  /** The resource as the caller may open it (a bare id, mcp:resource:<id> or an mcp:// address); not_found otherwise. */
  async function openResource(actor: PromptActor, resourceId: string) {
    try {
      return resourceId.includes(':') ? await deps.resources.resolve(actor, resourceId) : await deps.resources.get(actor, resourceId);
    } catch (error) {
      if (error instanceof ResourceError) throw new PromptError('not_found', `resource ${resourceId} not found`);
      throw error;
    }
  }

  /** A scope change: every live attachment must fit the new scope (deleted ones no longer count). */
  async function checkAttachmentsFit(client: Client, row: PromptRow, to: ReturnType<typeof scopeLibrary>): Promise<void> {
    const res = await client.query<{ id: string; display_name: string; library_kind: string; library_key: string }>(
      // Read for the libraries alone, whoever acts: the rule is about where the files are.
      `SELECT r.id, r.display_name, r.library_kind, r.library_key FROM prompt_attachments a JOIN resources r ON r.id = a.resource_id
        WHERE a.prompt_id = $1 ORDER BY a.position`,
      [row.id],
    );
    for (const r of res.rows) {
      const library = libraryFromKey(r.library_kind, r.library_key);
      if (!attachmentFits(library, to)) throw narrowerRefusal({ id: r.id, name: r.display_name, library: formatLibrary(library) }, libraryOf(row), to);
    }
  }
}
