import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildMcpServer, type McpServeDeps } from './build-server';
import type { ServeSession } from './serve-session';

// `oi mcp` over stdio: one client (the program that started us), JSON-RPC on stdin/stdout. Nothing else
// may write to stdout; the CLI sends every human message to stderr. The client closing our stdin is
// how it says goodbye (the SDK's client does that first), so that ends the server.

export async function serveStdio(deps: McpServeDeps, given?: ServeSession): Promise<{ closed: Promise<void>; close(): Promise<void> }> {
  const { server, session } = buildMcpServer(deps, given);
  const transport = new StdioServerTransport();
  let ended: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  transport.onclose = () => ended();
  process.stdin.once('end', () => void transport.close());
  await server.connect(transport);
  return {
    closed,
    async close() {
      await server.close().catch(() => undefined);
      await session.close();
    },
  };
}
