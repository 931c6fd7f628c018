/**
 * Where blocks go (toolkits.md 5.1): each block is a new text content block holding one JSON object,
 * appended after the tool's own; no existing block changes. The blocks' keys are merged into
 * `structuredContent` only when the tool produced a JSON object there, and never over a key the tool
 * set itself, so the tool's own result shape stays what it was. Resource links are appended last and
 * never merged.
 */
import type { CallToolResult } from '../mcp-tools/index.js';
import type { Block } from './blocks.js';

export interface ResourceLinkBlock {
  type: 'resource_link';
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function appendBlocks(result: CallToolResult, blocks: readonly Block[], links: readonly ResourceLinkBlock[] = []): CallToolResult {
  if (!blocks.length && !links.length) return result;
  const content = [...result.content, ...blocks.map((b) => ({ type: 'text' as const, text: JSON.stringify(b) })), ...links];
  const own = result.structuredContent;
  if (!isPlainObject(own)) return { ...result, content };
  const merged: Record<string, unknown> = { ...own };
  for (const block of blocks) {
    for (const [key, value] of Object.entries(block)) if (!(key in own)) merged[key] = value;
  }
  return { ...result, content, structuredContent: merged };
}
