import { z } from 'zod';
import type { CallToolResult, ElicitRequestFormParams, ElicitResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logging/index.js';
import type { CallerContext } from '../identity/index.js';

export type { CallToolResult };

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool handler knows about the call it is serving. */
export interface ToolCallContext {
  caller: CallerContext;
  /** The caller's active persona (the highest-priority match), when personas resolved one. */
  persona?: string;
  /** The MCP session, when the transport has one (stdio and stateless HTTP may not). */
  sessionId?: string;
  signal: AbortSignal;
  clientCapabilities?: ClientCapabilities;
  /** Asks the client a question; absent when the client did not declare elicitation or cannot be reached. */
  elicit?: (params: ElicitRequestFormParams) => Promise<ElicitResult>;
  log: Logger;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  /** The toolkit family (`platform`, `sql`, `catalog`, `objstore`, …) reported by platform_info. */
  toolkit: string;
  title?: string;
  description: string;
  input: Input;
  /**
   * Top-level arguments that carry file content (an object body, an upload). The audit log keeps
   * each as its size and SHA-256, never the value: declare every such argument here.
   */
  contentArguments?: ReadonlyArray<keyof z.output<Input> & string>;
  annotations?: ToolAnnotations;
  handler(args: z.output<Input>, ctx: ToolCallContext): Promise<CallToolResult>;
}

/** Keeps the handler's argument type tied to the input schema while storing tools uniformly. */
export function defineTool<Input extends z.ZodObject>(def: ToolDefinition<Input>): ToolDefinition {
  return def as unknown as ToolDefinition;
}

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * JSON text plus the same object as structuredContent. `written` is what the caller already made
 * of it: `text`, exactly what JSON.stringify gives for `value`, and `quoted`, exactly what
 * JSON.stringify gives for that text (the text as a JSON string, as the content block carries it).
 */
export function jsonResult(value: Record<string, unknown>, written?: { text: string; quoted: string }): CallToolResult {
  const text = written?.text ?? JSON.stringify(value);
  writtenJson.set(value, text);
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if (written) writtenJson.set(content, `[{"type":"text","text":${written.quoted}}]`);
  return { content, structuredContent: value };
}

/**
 * The JSON text of objects jsonResult already serialised: the wire writes a result's
 * structuredContent (and content, when the caller also wrote that) from it rather than
 * serialising the object a second time (megabytes for a large query result). Results are not
 * changed in place once made (enrichment merges into new objects, which have no text here and are
 * serialised as usual).
 */
const writtenJson = new WeakMap<object, string>();

/** The JSON text jsonResult made of `value`, if it made one. */
export function jsonWritten(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? writtenJson.get(value) : undefined;
}

/** A tool failure the agent should read: a result with isError, never a protocol error. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
