/**
 * The JSON-RPC 2.0 envelope rules of a message, checked without the SDK's schemas: exactly the
 * shapes the SDK's protocol layer accepts (it silently drops anything else, leaving the sender
 * without an answer), so every message we hand it gets an answer, and every one we refuse gets an
 * error reply that names the reason and, when it had a usable one, its id.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { jsonWritten } from '../../shared/mcp-tools/index.js';

export type Envelope =
  | { ok: true; kind: 'request'; id: RequestId; method: string; message: JSONRPCMessage }
  | { ok: true; kind: 'notification'; method: string; message: JSONRPCMessage }
  | { ok: true; kind: 'response'; message: JSONRPCMessage }
  /** `id` is the message's own when it had a usable one, so the refusal can answer it. */
  | { ok: false; id: RequestId | null; reason: string };

const envelopeKeys = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/** `_meta` of params or a result, as far as the SDK checks it. */
function metaProblem(container: Record<string, unknown>): string | undefined {
  if (!('_meta' in container)) return undefined;
  const meta = container._meta;
  if (!isObject(meta)) return '_meta must be an object';
  if ('progressToken' in meta && !isRequestId(meta.progressToken)) return '_meta.progressToken must be a string or an integer';
  const task = meta['io.modelcontextprotocol/related-task'];
  if (task !== undefined && !(isObject(task) && typeof task.taskId === 'string')) return '_meta related-task must name a taskId';
  return undefined;
}

function problem(value: Record<string, unknown>): string | undefined {
  if (value.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  const extra = Object.keys(value).find((key) => !envelopeKeys.has(key));
  if (extra !== undefined) return `unexpected member "${extra}"`;
  if ('id' in value && !isRequestId(value.id)) return 'id must be a string or an integer';
  const members = ['method', 'result', 'error'].filter((key) => key in value);
  if (members.length !== 1) return 'a message has exactly one of method, result or error';
  if ('method' in value) {
    if (typeof value.method !== 'string') return 'method must be a string';
    if ('params' in value) {
      if (!isObject(value.params)) return 'params must be an object';
      return metaProblem(value.params);
    }
    return undefined;
  }
  if ('params' in value) return 'params belongs to requests and notifications';
  if ('result' in value) {
    if (!('id' in value)) return 'a result needs the id of its request';
    return isObject(value.result) ? metaProblem(value.result) : 'result must be an object';
  }
  const error = value.error;
  if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return 'error must be an object with an integer code and a string message';
  }
  return undefined;
}

/** Classifies one parsed JSON value as a JSON-RPC message, or says why it is not one. */
export function classifyMessage(value: unknown): Envelope {
  if (!isObject(value)) return { ok: false, id: null, reason: 'a JSON-RPC message must be an object' };
  const reason = problem(value);
  if (reason !== undefined) return { ok: false, id: isRequestId(value.id) ? value.id : null, reason };
  const message = value as JSONRPCMessage;
  if (typeof value.method === 'string') {
    return isRequestId(value.id)
      ? { ok: true, kind: 'request', id: value.id, method: value.method, message }
      : { ok: true, kind: 'notification', method: value.method, message };
  }
  return { ok: true, kind: 'response', message };
}

export function errorReply(id: RequestId | null, code: number, message: string): JSONRPCMessage {
  // The SDK's message type has no `id: null`, which JSON-RPC requires when the id is unknown.
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

/**
 * A message (or a batch of them) as JSON text, the same text JSON.stringify gives. A tool's
 * answer whose structuredContent jsonResult already wrote as its text is written with that text
 * (shared/mcp-tools jsonWritten): a large result is serialised once, not twice.
 */
export function messageJson(message: unknown): string {
  if (Array.isArray(message)) return message.every(isObject) ? `[${message.map(messageJson).join(',')}]` : JSON.stringify(message);
  if (!isObject(message) || !isObject(message.result)) return JSON.stringify(message);
  const { result } = message;
  if (jsonWritten(result.structuredContent) === undefined && jsonWritten(result.content) === undefined) return JSON.stringify(message);
  return objectJson(message, ['result', objectJson(result)]);
}

/**
 * `object` as JSON.stringify writes it (key order kept, undefined members left out): a member is
 * `written` (name and text), else the text jsonResult made of it, else serialised.
 */
function objectJson(object: Record<string, unknown>, written?: [name: string, text: string]): string {
  let out = '';
  for (const name of Object.keys(object)) {
    const value = name === written?.[0] ? written[1] : (jsonWritten(object[name]) ?? (JSON.stringify(object[name]) as string | undefined));
    if (value !== undefined) out += `${out === '' ? '' : ','}${JSON.stringify(name)}:${value}`;
  }
  return `{${out}}`;
}
