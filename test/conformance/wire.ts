/**
 * Raw JSON-RPC answers, without an SDK client: what a conformance test needs to see exactly what
 * the server put on the wire (error codes and messages before any client rewrites them).
 */
import { openSession, post } from '../support/mcp-wire.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
export type Json = any;

export interface RawSession {
  /** Sends one request and returns the JSON-RPC response that answers it. */
  request(method: string, params?: Record<string, unknown>): Promise<Json>;
}

/** The JSON-RPC messages of a POST answer's body, whether the server chose JSON or an SSE stream. */
export function parseMessages(contentType: string | undefined, text: string): Json[] {
  if (!(contentType ?? '').includes('text/event-stream')) return text ? [JSON.parse(text)] : [];
  return text
    .split(/\r?\n\r?\n/)
    .map((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n'))
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

/** An initialized MCP session at `<apiUrl>/mcp` for a bearer credential, as a raw requester. */
export async function openRawSession(apiUrl: string, token: string): Promise<RawSession> {
  const session = await openSession(apiUrl, { token });
  let nextId = 1;
  return {
    async request(method, params) {
      const id = nextId++;
      const response = await post(session.url, { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }, session.headers());
      const messages = parseMessages(response.headers.get('content-type') ?? undefined, await response.text());
      const answer = messages.find((m: Json) => m.id === id);
      if (!answer) throw new Error(`no answer to ${method}: ${JSON.stringify(messages)}`);
      return answer;
    },
  };
}
