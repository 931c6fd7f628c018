/**
 * A run's MCP session: an SDK Client connected over an in-memory transport pair to the platform's
 * own MCP server built for the run's principal, so every platform.* call passes the same listing
 * rules, persona access, middleware (audit, metrics, gating) and refusal hooks as any caller's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { CallerContext } from '../../identity/index.js';
import type { EntryPoint } from '../types.js';

/**
 * Builds the platform's MCP server for one caller and session (api/mcp/server.ts buildMcpServer
 * over the api's surface); a session of a main() run also has the run tools (run-tools.ts).
 */
export type McpServerFor = (caller: CallerContext, sessionId: string, entry: EntryPoint) => Server;

export interface PlatformSession {
  client: Client;
  close(): Promise<void>;
}

/**
 * The validator of every run's Client. Left to itself the SDK builds a fresh Ajv instance, formats
 * and all, per Client: some 90 KiB allocated by every run for nothing, since a client validates
 * tool results only against output schemas it learnt from tools/list, which a run never sends (so
 * this one compiles nothing and stays as it is built).
 */
const runClientValidator = new AjvJsonSchemaValidator();

export async function openPlatformSession(serverFor: McpServerFor, caller: CallerContext, sessionId: string, entry: EntryPoint): Promise<PlatformSession> {
  const server = serverFor(caller, sessionId, entry);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: `script-run ${caller.subject}`, version: '1.0.0' }, { jsonSchemaValidator: runClientValidator });
  try {
    await client.connect(clientTransport);
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/**
 * A session opened on its first tool call: a run that calls no platform.* tool (most endpoint
 * handlers) pays nothing for it. A session that could not open fails that call (the script sees
 * the error). close() closes it when it was opened.
 */
export class LazyPlatformSession implements Pick<Client, 'callTool'> {
  #opened: Promise<PlatformSession> | undefined;

  constructor(
    private readonly serverFor: McpServerFor,
    private readonly caller: CallerContext,
    private readonly sessionId: string,
    private readonly entry: EntryPoint,
  ) {}

  /** Whether a call opened (or is opening) the session. */
  get opened(): boolean {
    return this.#opened !== undefined;
  }

  async callTool(...args: Parameters<Client['callTool']>): ReturnType<Client['callTool']> {
    this.#opened ??= openPlatformSession(this.serverFor, this.caller, this.sessionId, this.entry);
    return (await this.#opened).client.callTool(...args);
  }

  async close(): Promise<void> {
    const session = await this.#opened?.catch(() => undefined);
    await session?.close();
  }
}

/** LazyPlatformSession as a client and its close(). */
export function lazyPlatformSession(serverFor: McpServerFor, caller: CallerContext, sessionId: string, entry: EntryPoint): { client: Pick<Client, 'callTool'>; close(): Promise<void> } {
  const session = new LazyPlatformSession(serverFor, caller, sessionId, entry);
  return { client: session, close: () => session.close() };
}
