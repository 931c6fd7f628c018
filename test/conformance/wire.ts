/**
 * Raw JSON-RPC over Streamable HTTP, without an SDK client: what a conformance test needs to see
 * exactly what the server put on the wire (error codes and messages before any client rewrites them).
 */

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

async function messagesOf(response: Response): Promise<Json[]> {
  return parseMessages(response.headers.get('content-type') ?? undefined, await response.text());
}

/** Opens an MCP session at `<apiUrl>/mcp` with a bearer credential and returns a raw requester. */
export async function openRawSession(apiUrl: string, token: string): Promise<RawSession> {
  let nextId = 1;
  let sessionId: string | undefined;
  const post = async (body: Json) => {
    const response = await fetch(`${apiUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2025-11-25',
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      },
      body: JSON.stringify(body),
    });
    sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
    return response;
  };
  const request = async (method: string, params?: Record<string, unknown>) => {
    const id = nextId++;
    const messages = await messagesOf(await post({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }));
    const answer = messages.find((m: Json) => m.id === id);
    if (!answer) throw new Error(`no answer to ${method}: ${JSON.stringify(messages)}`);
    return answer;
  };
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-wire', version: '1' } });
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
  return { request };
}
