/**
 * The assets' MCP tools (issue 38): `save_artifact` (spec document 1 names it; toolkits §4.1's
 * `save_asset` is its model: name, content, content_type from the allow-list, description, tags,
 * sources; answers asset_id, portal_url, message, provenance_captured, calls_recorded) and
 * `manage_asset` (toolkits §4.1's name, with the actions people need: list, get, update, delete,
 * list_versions, revert, share, list_shares, revoke_share). Both are registered on the MCP surface,
 * so persona tool rules filter them like every tool. Refusals are tool errors whose text is the
 * service's message and whose structured content is `{error, message, ...details}`.
 */
import { z } from 'zod';
import type { CallerContext } from '../identity/index.js';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { readAll } from '../objstore/index.js';
import type { ResourceActor } from '../resources/index.js';
import { ASSET_CONTENT_TYPES, isTextType, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, MAX_NOTICE_CHARS, MAX_SOURCES, MAX_TAGS } from './rules.js';
import { AssetError, type AssetService } from './types.js';

export const SAVE_ARTIFACT_TOOL = 'save_artifact';
export const MANAGE_ASSET_TOOL = 'manage_asset';

export interface AssetToolOptions {
  /** The caller as an actor: an agent whose writer is its MCP session (cli/services.ts agentActor). */
  actorOf(caller: CallerContext, sessionId?: string): ResourceActor;
  /** Content get inlines, at most (default 1 MB, as search `fetch`). */
  readInlineBytes?: number;
  /** Writes the tool-call audit rows still queued, so a save's provenance sees the session's calls made just before it. */
  flushAudit?: () => Promise<void>;
}

function errorResult(code: string, message: string, details?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: code, message, ...details }, isError: true };
}

/** The tool result of an asset refusal; undefined for any other error. */
export function assetRefusal(error: unknown): CallToolResult | undefined {
  if (error instanceof AssetError) return errorResult(error.code, error.message, error.details);
  return undefined;
}

const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of content (text) or content_base64; `required`: one of them must be given. */
function bytesOf(args: { content?: string | undefined; content_base64?: string | undefined }, required: boolean): Buffer | undefined {
  if (args.content !== undefined && args.content_base64 !== undefined) throw new AssetError('invalid', 'give content (text) or content_base64 (bytes), not both');
  if (args.content !== undefined) return Buffer.from(args.content, 'utf8');
  if (args.content_base64 !== undefined) {
    const compact = args.content_base64.replace(/\s+/g, '');
    if (!strictBase64.test(compact)) throw new AssetError('invalid', 'content_base64 is not valid base64 (A-Z, a-z, 0-9, +, /, = padding)');
    return Buffer.from(compact, 'base64');
  }
  if (required) throw new AssetError('invalid', 'the content is required: content (text) or content_base64 (bytes, e.g. a PNG)');
  return undefined;
}

const contentType = z.string().describe(`One of ${ASSET_CONTENT_TYPES.join(', ')}.`);
const tags = z.array(z.string()).max(MAX_TAGS).describe(`At most ${MAX_TAGS} tags of at most 100 characters.`);
const sources = z
  .array(z.string())
  .max(MAX_SOURCES)
  .describe('What the content drew on: resource references (mcp:resource:<id>) or addresses (mcp://…) — recorded so the resource lists the asset under Used by —, URLs, call ids.');

const saveInput = z.object({
  name: z.string().max(MAX_NAME_CHARS).optional().describe('Display name (required for a new asset).'),
  content: z.string().optional().describe('The content as text (markdown, HTML, JSX, SVG, CSV, JSON, plain text).'),
  content_base64: z.string().optional().describe('The content as base64 bytes instead of content (a PNG).'),
  content_type: contentType,
  description: z.string().max(MAX_DESCRIPTION_CHARS).optional().describe('What it is.'),
  tags: tags.optional(),
  sources: sources.optional(),
  asset_id: z.string().optional().describe('Save a new version of this asset (yours) instead of creating one.'),
  change_summary: z.string().optional().describe('What changed, shown with the version.'),
});

const saveDescription = `Save content you generated (a report, a chart, a page, a table) as an asset people find in the portal (My assets) and can share. Each save of the same asset (asset_id) is a new version; the versions are kept with their provenance (this session and its tool calls).

content_type is one of: ${ASSET_CONTENT_TYPES.join(', ')}. Text goes in content; a PNG in content_base64. The content is at most portal.max_content_size bytes (10 MiB by default) and must be what its type says (valid JSON, an <svg> document, a PNG). HTML and JSX are shown in a sandboxed frame without network access: inline everything they need (React is provided for JSX: export a default component).

Resources the content references (mcp:resource:<id> or their mcp:// address), and those named in sources, are recorded: the resource then lists this asset under Used by.

Result: {asset_id, version, created, portal_url?, message, provenance_captured, calls_recorded}.`;

export function saveArtifactTool(service: AssetService, opts: AssetToolOptions): ToolDefinition {
  return defineTool({
    name: SAVE_ARTIFACT_TOOL,
    toolkit: 'platform',
    title: 'Save an artifact',
    description: saveDescription,
    input: saveInput,
    contentArguments: ['content', 'content_base64'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      const actor = opts.actorOf(ctx.caller, ctx.sessionId);
      try {
        await opts.flushAudit?.();
        const result = await service.save(actor, {
          content: bytesOf(args, true)!,
          content_type: args.content_type,
          ...(args.name !== undefined ? { name: args.name } : {}),
          ...(args.description !== undefined ? { description: args.description } : {}),
          ...(args.tags !== undefined ? { tags: args.tags } : {}),
          ...(args.sources !== undefined ? { sources: args.sources } : {}),
          ...(args.asset_id !== undefined ? { asset_id: args.asset_id } : {}),
          ...(args.change_summary !== undefined ? { change_summary: args.change_summary } : {}),
        });
        const { asset } = result;
        return jsonResult({
          asset_id: asset.id,
          version: result.version,
          created: result.created,
          ...(asset.portal_url ? { portal_url: asset.portal_url } : {}),
          message: result.created
            ? `Saved "${asset.name}" as a new asset (version 1)${asset.portal_url ? `: ${asset.portal_url}` : ''}. Share it with manage_asset action share.`
            : `Saved version ${result.version} of "${asset.name}"${asset.portal_url ? `: ${asset.portal_url}` : ''}.`,
          provenance_captured: result.provenance.captured,
          calls_recorded: result.provenance.calls_recorded,
        });
      } catch (error) {
        const refusal = assetRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
}

export const manageAssetActions = ['list', 'get', 'update', 'delete', 'list_versions', 'revert', 'share', 'list_shares', 'revoke_share'] as const;

const manageInput = z.object({
  action: z.enum(manageAssetActions).describe('The operation.'),
  asset_id: z.string().optional().describe('The asset (every action but list).'),
  scope: z.enum(['mine', 'shared_with_me', 'all']).optional().describe('list: yours (default), shared with you privately, or every asset (platform administrators).'),
  query: z.string().optional().describe('list: words matched against name, description and tags.'),
  limit: z.number().int().min(1).max(200).optional().describe('list: page size (default 50, at most 200).'),
  cursor: z.string().optional().describe('list: the next_cursor of the previous page.'),
  name: z.string().max(MAX_NAME_CHARS).optional().describe('update: new name.'),
  description: z.string().max(MAX_DESCRIPTION_CHARS).optional().describe('update: new description.'),
  tags: tags.optional().describe('update: the new tag list.'),
  content: z.string().optional().describe('update: new content as text (a new version).'),
  content_base64: z.string().optional().describe('update: new content as base64 bytes (a new version).'),
  content_type: contentType.optional().describe('update with content: its type (default: the current one).'),
  change_summary: z.string().optional().describe('update with content: what changed.'),
  sources: sources.optional(),
  version: z.number().int().min(1).optional().describe('revert: the version to restore (becomes a new version); get: a version to read instead of the current one.'),
  expires_in: z.string().optional().describe('share: how long the link works, e.g. 24h, 7d (none: until revoked).'),
  shared_with_user_id: z.string().optional().describe('share: a private share for this user (subject); they sign in to open it.'),
  shared_with_email: z.string().optional().describe('share: a private share for this email address; they sign in to open it.'),
  hide_expiration: z.boolean().optional().describe('share: hide the expiry countdown in the viewer.'),
  notice_text: z
    .string()
    .max(MAX_NOTICE_CHARS)
    .nullable()
    .optional()
    .describe(`share: the notice the viewer shows; omitted or null: the built-in confidentiality notice; "": none; at most ${MAX_NOTICE_CHARS} characters.`),
  share_id: z.string().optional().describe('revoke_share: the share.'),
});

const manageDescription = `List, read, change, delete and share assets (content saved with save_artifact).

Actions:
- list: scope (mine | shared_with_me | all), query, limit, cursor → {items, next_cursor}.
- get: asset_id (and version) → {asset, content | content_base64 (at most 1 MB inline), references, provenance}.
- update: asset_id and any of name, description, tags; with content or content_base64 (and content_type, change_summary, sources) it saves a new version.
- delete: asset_id (its shares stop working).
- list_versions: asset_id → {versions}.
- revert: asset_id, version → the content of that version saved as a new version.
- share: asset_id, expires_in, shared_with_user_id / shared_with_email (private: only that person, signed in), hide_expiration, notice_text → {share, url, path}. The link is shown only here: keep it.
- list_shares: asset_id → {shares}. revoke_share: asset_id, share_id.
Only the asset's owner and platform administrators may change, delete and share it; a person a private share names may read it.`;

export function manageAssetTool(service: AssetService, opts: AssetToolOptions): ToolDefinition {
  const inline = opts.readInlineBytes ?? 1024 * 1024;
  return defineTool({
    name: MANAGE_ASSET_TOOL,
    toolkit: 'platform',
    title: 'Manage assets',
    description: manageDescription,
    input: manageInput,
    contentArguments: ['content', 'content_base64'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      const actor = opts.actorOf(ctx.caller, ctx.sessionId);
      const id = () => {
        if (!args.asset_id) throw new AssetError('invalid', `${args.action} needs asset_id`);
        return args.asset_id;
      };
      try {
        switch (args.action) {
          case 'list':
            return jsonResult({
              ...(await service.list(actor, {
                scope: args.scope ?? 'mine',
                ...(args.query !== undefined ? { query: args.query } : {}),
                ...(args.limit !== undefined ? { limit: args.limit } : {}),
                ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
              })),
            });
          case 'get': {
            const detail = await service.get(actor, id());
            const { references, provenance, ...asset } = detail;
            const { version, body } = await service.openContent(actor, detail.id, args.version);
            if (version.size > inline) {
              body.destroy();
              return jsonResult({ asset, version: version.version, references, provenance, content_omitted: `the content is ${version.size} bytes; get inlines at most ${inline}` });
            }
            const { bytes } = await readAll(body, inline);
            return jsonResult({
              asset,
              version: version.version,
              references,
              provenance,
              ...(isTextType(version.content_type) ? { content: bytes.toString('utf8') } : { content_base64: bytes.toString('base64') }),
            });
          }
          case 'update': {
            const content = bytesOf(args, false);
            if (content) {
              const current = await service.get(actor, id());
              await opts.flushAudit?.();
              const result = await service.save(actor, {
                asset_id: current.id,
                content,
                content_type: args.content_type ?? current.content_type,
                ...(args.name !== undefined ? { name: args.name } : {}),
                ...(args.description !== undefined ? { description: args.description } : {}),
                ...(args.tags !== undefined ? { tags: args.tags } : {}),
                ...(args.sources !== undefined ? { sources: args.sources } : {}),
                ...(args.change_summary !== undefined ? { change_summary: args.change_summary } : {}),
              });
              return jsonResult({ asset: result.asset, version: result.version, provenance_captured: result.provenance.captured, calls_recorded: result.provenance.calls_recorded });
            }
            const asset = await service.update(actor, id(), {
              ...(args.name !== undefined ? { name: args.name } : {}),
              ...(args.description !== undefined ? { description: args.description } : {}),
              ...(args.tags !== undefined ? { tags: args.tags } : {}),
            });
            return jsonResult({ asset });
          }
          case 'delete':
            await service.delete(actor, id());
            return jsonResult({ deleted: true, asset_id: id() });
          case 'list_versions':
            return jsonResult({ versions: await service.versions(actor, id()) });
          case 'revert': {
            if (args.version === undefined) throw new AssetError('invalid', 'revert needs version');
            return jsonResult({ asset: await service.restore(actor, id(), args.version) });
          }
          case 'share': {
            const created = await service.createShare(actor, id(), {
              expires_in: args.expires_in,
              shared_with_user_id: args.shared_with_user_id,
              shared_with_email: args.shared_with_email,
              hide_expiration: args.hide_expiration,
              notice_text: args.notice_text,
            });
            return jsonResult({ share: created.share, path: created.path, ...(created.url ? { url: created.url } : {}) });
          }
          case 'list_shares':
            return jsonResult({ shares: await service.listShares(actor, id()) });
          case 'revoke_share': {
            if (!args.share_id) throw new AssetError('invalid', 'revoke_share needs share_id');
            return jsonResult({ share: await service.revokeShare(actor, id(), args.share_id) });
          }
        }
      } catch (error) {
        const refusal = assetRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
}
