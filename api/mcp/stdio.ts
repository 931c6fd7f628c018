import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { localOperator } from '../../shared/identity/index.js';
import { buildMcpServer, type McpSurface } from './server.js';

/**
 * MCP over stdin/stdout for a local client. No MCP authentication: the process runs with the
 * operator's own credentials (spec document 1, transport rules). Resolves when the client closes.
 */
export async function serveStdio(surface: McpSurface, streams?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream }): Promise<void> {
  const server = buildMcpServer(surface, { caller: localOperator });
  const transport = streams
    ? new StdioServerTransport(streams.stdin as never, streams.stdout as never)
    : new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  const input = streams?.stdin ?? process.stdin;
  input.once('end', () => void server.close());
  await closed;
}
