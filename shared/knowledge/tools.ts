/**
 * The knowledge tools (toolkits.md §4.1, under the names the issue uses): `capture_insight`
 * (knowledge.enabled) and `apply_knowledge` (knowledge.apply.enabled). Both are on the MCP surface,
 * so persona rules filter them like every tool; apply_knowledge is also refused to anyone who is
 * not a platform administrator, whatever their persona allows. Refusals are tool errors whose text
 * is the message and whose structured content is `{error, message, ...details}`.
 */
import { z } from 'zod';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolCallContext, type ToolDefinition } from '../mcp-tools/index.js';
import type { Changesets } from './changesets.js';
import type { InsightStore } from './insights.js';
import { CHANGE_TYPES, CONFIDENCES, INSIGHT_CATEGORIES, INSIGHT_SOURCES, INSIGHT_STATUSES, KnowledgeError, LIMITS, type KnowledgeActor } from './types.js';

export const CAPTURE_INSIGHT_TOOL = 'capture_insight';
export const APPLY_KNOWLEDGE_TOOL = 'apply_knowledge';

export interface KnowledgeToolOptions {
  /** Whether the caller is a platform administrator (a member of admin.persona, or the local operator). */
  isAdmin(caller: CallerContext): boolean;
  /** The admin persona's name, for the refusal's message. */
  adminPersona: string;
}

function refusal(error: unknown): CallToolResult {
  if (!(error instanceof KnowledgeError)) throw error;
  return { content: [{ type: 'text', text: error.message }], structuredContent: { error: error.code, message: error.message, ...error.details }, isError: true };
}

/** A message as one sentence ending in a full stop (a catalog message may bring its own). */
const sentence = (text: string | null) => `${(text ?? 'unknown error').replace(/\.+$/, '')}.`;

export function knowledgeActor(ctx: ToolCallContext): KnowledgeActor {
  return {
    subject: ctx.caller.subject,
    authType: ctx.caller.authType,
    ...(ctx.caller.email ? { email: ctx.caller.email } : {}),
    ...(ctx.persona ? { persona: ctx.persona } : {}),
    ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
  };
}

const oneOf = (name: string, values: readonly string[]) => ({ error: `${name} must be one of ${values.join(', ')}` });
const category = z.enum(INSIGHT_CATEGORIES, oneOf('category', INSIGHT_CATEGORIES));
const changeType = z.enum(CHANGE_TYPES, oneOf('change_type', CHANGE_TYPES));
const changeTarget = z.string().max(2000).optional().describe('update_description, add_tag, remove_tag, add_glossary_term: a column (field path); none: the dataset. add_documentation: the URL (http or https).');
const changeDetail = z.string().max(20_000).describe('The new description; the tag or glossary term (URN, or name: PII → urn:li:tag:PII); the link label.');

/** A catalog URN (`urn:li:<type>:<key>`), at most 1000 characters. */
const urn = (field: string) =>
  z
    .string()
    .max(1000, `${field}: a URN is at most 1000 characters`)
    .regex(/^urn:li:[A-Za-z]+:\S/, `${field}: each must be a catalog URN (urn:li:<type>:<key>)`);

const captureInput = z.object({
  category: category.describe(`What kind of knowledge: ${INSIGHT_CATEGORIES.join(', ')}.`),
  insight_text: z
    .string()
    .min(LIMITS.textMin, `insight_text must be at least ${LIMITS.textMin} characters`)
    .max(LIMITS.textMax, `insight_text must be at most ${LIMITS.textMax} characters`)
    .describe(`The knowledge, in words (${LIMITS.textMin}–${LIMITS.textMax} characters).`),
  entity_urns: z
    .array(urn('entity_urns'))
    .max(LIMITS.entityUrns, `entity_urns: at most ${LIMITS.entityUrns}`)
    .optional()
    .describe(`Catalog entities it is about (URNs), at most ${LIMITS.entityUrns}.`),
  related_columns: z
    .array(z.object({ urn: urn('related_columns[].urn'), column: z.string().min(1).max(500), relevance: z.string().max(100).optional() }))
    .max(LIMITS.relatedColumns, `related_columns: at most ${LIMITS.relatedColumns}`)
    .optional()
    .describe(`Columns it is about: {urn, column, relevance}, at most ${LIMITS.relatedColumns}.`),
  suggested_actions: z
    .array(z.object({ action_type: changeType, target: changeTarget, detail: changeDetail }))
    .max(LIMITS.suggestedActions, `suggested_actions: at most ${LIMITS.suggestedActions}`)
    .optional()
    .describe(`Catalog changes you suggest (a reviewer decides), at most ${LIMITS.suggestedActions}: {action_type (${CHANGE_TYPES.join(', ')}), target, detail}.`),
  confidence: z.enum(CONFIDENCES, oneOf('confidence', CONFIDENCES)).optional().describe('high, medium (default) or low.'),
  source: z.enum(INSIGHT_SOURCES, oneOf('source', INSIGHT_SOURCES)).optional().describe('user (default: a person told you), agent_discovery (you found it), enrichment_gap (the catalog lacked it).'),
  call_ids: z
    .array(z.string().min(1).max(200))
    .max(LIMITS.callIds, `call_ids: at most ${LIMITS.callIds}`)
    .optional()
    .describe(`The tool calls it came from (their ids), at most ${LIMITS.callIds}.`),
});

const captureDescription = `Record knowledge about the data that the catalog lacks or gets wrong — a correction, business context, a data-quality note, usage guidance, a relationship, an enhancement — so an administrator can review it and apply it to the catalog. Name the entities (URNs) and columns it is about, and suggest catalog changes if you can.

An insight that says what an open insight about the same entity already says is not stored twice: you get that insight back (duplicate: true). Result: {insight_id, status, message, duplicate?, similar_existing?:[{id, score, status}]}.`;

export function captureInsightTool(store: InsightStore): ToolDefinition {
  return defineTool({
    name: CAPTURE_INSIGHT_TOOL,
    toolkit: 'knowledge',
    title: 'Capture an insight',
    description: captureDescription,
    input: captureInput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      try {
        const result = await store.capture(knowledgeActor(ctx), args);
        const { insight } = result;
        const similar = result.similar_existing.filter((s) => s.id !== insight.id);
        return jsonResult({
          insight_id: insight.id,
          status: insight.status,
          message: result.stored
            ? `Insight recorded for review (pending).${similar.length ? ` ${similar.length} similar open insight(s) exist; a reviewer will see them side by side.` : ''}`
            : `Not stored again: insight ${insight.id} (${insight.status}) already says this (captured ${insight.times_captured} times).`,
          ...(result.stored ? {} : { duplicate: true }),
          ...(similar.length ? { similar_existing: similar } : {}),
        });
      } catch (error) {
        return refusal(error);
      }
    },
  });
}

export const APPLY_ACTIONS = ['bulk_review', 'review', 'approve', 'reject', 'apply', 'rollback', 'list_changesets'] as const;

const applyInput = z.object({
  action: z.enum(APPLY_ACTIONS, oneOf('action', APPLY_ACTIONS)).describe('The operation.'),
  status: z.enum(INSIGHT_STATUSES, oneOf('status', INSIGHT_STATUSES)).optional().describe('review: insights in this status (default pending).'),
  category: category.optional().describe('review: of this category.'),
  entity_urn: z.string().min(1).max(1000).optional().describe('review, list_changesets: about this entity. apply: the dataset to change (required).'),
  insight_id: z.string().min(1).max(100).optional().describe('approve, reject: one insight (or insight_ids).'),
  insight_ids: z.array(z.string().min(1).max(100)).max(LIMITS.insightIds, `insight_ids: at most ${LIMITS.insightIds}`).optional().describe(`approve, reject: the insights; apply: the approved insights it applies (at most ${LIMITS.insightIds}).`),
  review_notes: z.string().max(LIMITS.notesMax, `review_notes: at most ${LIMITS.notesMax} characters`).optional().describe('approve, reject, apply: why.'),
  changes: z
    .array(z.object({ change_type: changeType, target: changeTarget, detail: changeDetail }))
    .max(LIMITS.changes, `changes: at most ${LIMITS.changes}`)
    .optional()
    .describe(`apply: the catalog changes, in order (at most ${LIMITS.changes}): {change_type (${CHANGE_TYPES.join(', ')}), target, detail}.`),
  confirm: z.boolean().optional().describe('apply: true to write when knowledge.apply.require_confirmation is on (without it you get what would change).'),
  changeset_id: z.string().min(1).max(100).optional().describe('rollback: the changeset to undo.'),
  force: z.boolean().optional().describe('rollback: restore the prior values even where the catalog was changed since the apply (without it such a change stops the rollback).'),
  limit: z.number().int().min(1).max(LIMITS.pageMax).optional().describe(`review, list_changesets: page size (default ${LIMITS.pageDefault}, at most ${LIMITS.pageMax}).`),
  offset: z.number().int().min(0).optional().describe('review, list_changesets: skip this many.'),
});

const applyDescription = `Review captured insights and apply approved knowledge to the catalog (platform administrators only).

Actions: bulk_review (the pending queue grouped by entity, category, confidence and age); review (insights by status — default pending —, entity_urn, category; paged); approve / reject (insight_id or insight_ids, with review_notes); apply (entity_urn, changes [{change_type, target, detail}], optionally the approved insight_ids it applies: written to the catalog in order and recorded as a changeset with each change's prior value); rollback (changeset_id: restores the prior values; a value someone changed since the apply stops it unless force: true); list_changesets (entity_urn optional).

Change types: ${CHANGE_TYPES.join(', ')}. A failed write stops the changeset: it is reported partial, naming which changes applied; roll it back to undo them.`;

export function applyKnowledgeTool(store: InsightStore, changesets: Changesets, opts: KnowledgeToolOptions): ToolDefinition {
  return defineTool({
    name: APPLY_KNOWLEDGE_TOOL,
    toolkit: 'knowledge',
    title: 'Review and apply knowledge',
    description: applyDescription,
    input: applyInput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async handler(args, ctx) {
      try {
        if (!opts.isAdmin(ctx.caller)) {
          throw new KnowledgeError('forbidden', `apply_knowledge is for platform administrators (members of the persona "${opts.adminPersona}")`);
        }
        const actor = knowledgeActor(ctx);
        const need = <T>(value: T | undefined, field: string): T => {
          if (value === undefined || (Array.isArray(value) && value.length === 0)) throw new KnowledgeError('invalid', `${field} is required for action ${args.action}`);
          return value;
        };
        switch (args.action) {
          case 'bulk_review':
            return jsonResult({ ...(await store.summary()) });
          case 'review': {
            const page = await store.list({
              ...(args.status ? { status: args.status } : {}),
              ...(args.category ? { category: args.category } : {}),
              ...(args.entity_urn ? { entity_urn: args.entity_urn } : {}),
              ...(args.limit !== undefined ? { limit: args.limit } : {}),
              ...(args.offset !== undefined ? { offset: args.offset } : {}),
            });
            return jsonResult({ ...page });
          }
          case 'approve':
          case 'reject': {
            const ids = [...(args.insight_id ? [args.insight_id] : []), ...(args.insight_ids ?? [])];
            const result = await store.decide(actor, need(ids.length ? ids : undefined, 'insight_id or insight_ids'), args.action, args.review_notes);
            const verb = args.action === 'approve' ? 'approved' : 'rejected';
            return jsonResult({
              [verb]: result.changed.map((i) => i.id),
              ...(result.unchanged.length ? { already: result.unchanged.map((i) => i.id) } : {}),
              message: `${result.changed.length} insight(s) ${verb}${result.unchanged.length ? `; ${result.unchanged.length} already ${verb}` : ''}.`,
            });
          }
          case 'apply': {
            const result = await changesets.apply(actor, {
              entity_urn: need(args.entity_urn, 'entity_urn'),
              changes: need(args.changes, 'changes'),
              ...(args.insight_ids ? { insight_ids: args.insight_ids } : {}),
              ...(args.review_notes ? { review_notes: args.review_notes } : {}),
              ...(args.confirm !== undefined ? { confirm: args.confirm } : {}),
            });
            if ('confirmation_required' in result) {
              return jsonResult({ ...result, message: 'Nothing written: knowledge.apply.require_confirmation is on. These are the changes; call again with confirm: true to write them.' });
            }
            const applied = result.changes.filter((c) => c.status === 'applied').map((c) => c.position);
            if (result.status === 'partial') {
              const text = `Changeset ${result.id} is partial: ${sentence(result.error)} Applied: ${applied.length ? applied.map((p) => `changes[${p}]`).join(', ') : 'none'}; not applied: the rest. Roll it back (action rollback, changeset_id) to undo what applied.`;
              return { content: [{ type: 'text', text }], structuredContent: { error: 'partial', message: text, changeset: result }, isError: true };
            }
            return jsonResult({ changeset_id: result.id, status: result.status, changeset: result, message: `Applied ${applied.length} change(s) to ${result.entity_urn} on catalog "${result.connection}" (changeset ${result.id}).` });
          }
          case 'rollback': {
            const result = await changesets.rollback(actor, need(args.changeset_id, 'changeset_id'), { ...(args.force ? { force: true } : {}) });
            if (result.status !== 'rolled_back') {
              const text = `Changeset ${result.id} is ${result.status}: ${sentence(result.error)} Call rollback again to continue.`;
              return { content: [{ type: 'text', text }], structuredContent: { error: 'rollback_partial', message: text, changeset: result }, isError: true };
            }
            return jsonResult({ changeset_id: result.id, status: result.status, changeset: result, message: `Changeset ${result.id} rolled back: the prior values are restored.` });
          }
          case 'list_changesets':
            return jsonResult({
              ...(await changesets.list({
                ...(args.entity_urn ? { entity_urn: args.entity_urn } : {}),
                ...(args.limit !== undefined ? { limit: args.limit } : {}),
                ...(args.offset !== undefined ? { offset: args.offset } : {}),
              })),
            });
        }
      } catch (error) {
        return refusal(error);
      }
    },
  });
}
