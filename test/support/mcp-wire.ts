/**
 * Raw Streamable HTTP for conformance tests: what the SDK client hides (Accept variants, batches,
 * event ids, priming events, dropped connections, Last-Event-ID).
 */
import http from 'node:http';
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import { testApiKey } from './api.js';

export const latestVersion = '2025-11-25';

export interface WireSession {
  url: string;
  sessionId: string;
  version: string;
  headers(extra?: Record<string, string>): Record<string, string>;
}

export function baseHeaders(token = testApiKey): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
}

export function post(url: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
}

/** Initializes a session at `version` (with the given client capabilities) and confirms it. */
export async function openSession(
  apiUrl: string,
  opts: { version?: string; capabilities?: Record<string, unknown>; token?: string } = {},
): Promise<WireSession> {
  const url = `${apiUrl}/mcp`;
  const version = opts.version ?? latestVersion;
  const init = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: opts.capabilities ?? {}, clientInfo: { name: 'wire-test', version: '1' } },
    },
    { ...baseHeaders(opts.token), accept: 'application/json' },
  );
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${await init.text()}`);
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('initialize answered without a session id');
  await init.json();
  const headers = (extra: Record<string, string> = {}) => ({
    ...baseHeaders(opts.token),
    'mcp-session-id': sessionId,
    'mcp-protocol-version': version,
    ...extra,
  });
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers());
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return { url, sessionId, version, headers };
}

/** The SSE events of a response, read one at a time. */
export function sseEvents(response: Response): { next(): Promise<EventSourceMessage | undefined>; rest(): Promise<EventSourceMessage[]> } {
  if (!response.body) throw new Error('response has no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  return {
    async next() {
      const { value, done } = await reader.read();
      return done ? undefined : value;
    },
    async rest() {
      const events: EventSourceMessage[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return events;
        events.push(value);
      }
    },
  };
}

/**
 * A POST whose connection the test can cut abruptly (TCP reset) after reading some events, the
 * way a network failure does: Node's http client, not fetch, so the socket is in reach.
 */
export function droppablePost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ events: { next(): Promise<{ id: string; data: string }> }; drop(): void }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (res) => {
      const queue: { id: string; data: string }[] = [];
      const waiting: ((event: { id: string; data: string }) => void)[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(frame)?.[1];
          const data = /^data: ?(.*)$/m.exec(frame)?.[1];
          if (id === undefined || data === undefined) continue;
          const event = { id, data };
          const waiter = waiting.shift();
          if (waiter) waiter(event);
          else queue.push(event);
        }
      });
      resolve({
        events: {
          next: () => new Promise((r) => (queue.length ? r(queue.shift()!) : waiting.push(r))),
        },
        drop: () => res.socket.resetAndDestroy(),
      });
    });
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    request.end(JSON.stringify(body));
  });
}
