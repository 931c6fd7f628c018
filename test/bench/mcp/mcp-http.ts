/**
 * Raw MCP over Streamable HTTP with `node:http`, for the load generator: no SDK client, so the
 * load side costs little and measures the server, not a client library. Requests carry the
 * headers the official SDK client sends; answers may be JSON or an SSE stream (`data:` lines),
 * and both are read to the end before the next request on that connection.
 */
import http from 'node:http';

export const protocolVersion = '2025-11-25';

export interface Target {
  /** Base URL of the server, e.g. http://127.0.0.1:4100 */
  baseUrl: string;
  /** Bearer credential sent on every request. */
  token: string;
}

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request over the keep-alive agent; resolves once the whole body has arrived. */
export function send(
  agent: http.Agent,
  url: URL,
  method: 'POST' | 'DELETE',
  headers: Record<string, string>,
  body?: string,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** An answer that does not count as a completed operation. */
export class OpError extends Error {}

interface JsonRpcResponse {
  id?: unknown;
  result?: { isError?: boolean };
  error?: { code?: number; message?: string };
}

/** The JSON-RPC messages of an SSE body: the `data:` lines of each event, joined. */
export function sseMessages(body: string): unknown[] {
  const messages: unknown[] = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    // Priming events carry an id and empty data.
    if (data.length > 0 && data.join('').trim() !== '') messages.push(JSON.parse(data.join('\n')));
  }
  return messages;
}

/** The response to request `id` from a JSON or SSE answer; throws OpError on anything but a successful result. */
export function jsonRpcResult(answer: HttpAnswer, id: number): NonNullable<JsonRpcResponse['result']> {
  if (answer.status !== 200) throw new OpError(`HTTP ${answer.status}: ${answer.body.slice(0, 200)}`);
  const type = answer.headers['content-type'] ?? '';
  const messages = type.includes('text/event-stream') ? sseMessages(answer.body) : [JSON.parse(answer.body) as unknown];
  const response = messages.find((m): m is JsonRpcResponse => (m as JsonRpcResponse | null)?.id === id);
  if (!response) throw new OpError(`no JSON-RPC response with id ${id} in ${type} answer: ${answer.body.slice(0, 200)}`);
  if (response.error) throw new OpError(`JSON-RPC error ${response.error.code}: ${response.error.message}`);
  if (!response.result) throw new OpError(`JSON-RPC response ${id} without result`);
  if (response.result.isError) throw new OpError(`tool error: ${JSON.stringify(response.result).slice(0, 200)}`);
  return response.result;
}

/** An MCP session opened by `openSession`: its id and the next JSON-RPC request id. */
export class McpSession {
  #nextId = 2;

  constructor(
    private readonly agent: http.Agent,
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    readonly id: string,
  ) {}

  /** A JSON-RPC request on the session; resolves with its successful result. */
  async request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.#nextId++;
    const answer = await send(this.agent, this.url, 'POST', this.headers, JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return jsonRpcResult(answer, id);
  }

  /** Ends the session with DELETE, as the SDK client's terminateSession() does (no body, so no content-type). */
  async close(): Promise<void> {
    const { 'content-type': _bodyType, ...headers } = this.headers;
    const answer = await send(this.agent, this.url, 'DELETE', headers);
    if (answer.status !== 200) throw new OpError(`DELETE answered HTTP ${answer.status}: ${answer.body.slice(0, 200)}`);
  }
}

/** Sends initialize, reads the session id, then sends notifications/initialized, as a client does. */
export async function openSession(agent: http.Agent, target: Target): Promise<McpSession> {
  const url = new URL('/mcp', target.baseUrl);
  const base = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    authorization: `Bearer ${target.token}`,
  };
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
  const answer = await send(agent, url, 'POST', base, JSON.stringify(initialize));
  jsonRpcResult(answer, 1);
  const sessionId = answer.headers['mcp-session-id'];
  if (typeof sessionId !== 'string') throw new OpError('initialize answered without an mcp-session-id header');
  const headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
  const initialized = await send(agent, url, 'POST', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  if (initialized.status !== 202) throw new OpError(`notifications/initialized answered HTTP ${initialized.status}: ${initialized.body.slice(0, 200)}`);
  return new McpSession(agent, url, headers, sessionId);
}
