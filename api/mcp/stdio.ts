import type { Readable, Writable } from 'node:stream';
import { localOperator } from '../../shared/identity/index.js';
import { buildMcpServer, type McpSurface } from './server.js';
import { LineTransport } from './stdio-transport.js';

/**
 * MCP over stdin/stdout for a local client. No MCP authentication: the process runs with the
 * operator's own credentials (spec document 1, transport rules). Resolves when the client has
 * closed its end and every request it sent has been answered.
 */
export async function serveStdio(surface: McpSurface, streams?: { stdin: Readable; stdout: Writable }): Promise<void> {
  const server = buildMcpServer(surface, { caller: localOperator });
  const transport = new LineTransport(streams?.stdin ?? process.stdin, streams?.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
}
