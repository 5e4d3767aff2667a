import type { McpServer } from '@agentclientprotocol/sdk';
import { McpServerName, type McpServerConfig } from '@contract';

// The MCP servers an editor passes with session/new or session/load, in the shape of the app's own
// `mcpServers` entries, so the app's MCP client starts them, offers their tools and asks before a
// call as for a server the person configured (docs/mcp.md). They are this run's: never saved.

/** The client's servers by the names the app accepts; a name taken by the person's own server keeps theirs. */
export function clientMcpServers(
  servers: McpServer[],
  configured: Record<string, unknown>,
): { add: Record<string, McpServerConfig>; kept: string[] } {
  const add: Record<string, McpServerConfig> = {};
  const kept: string[] = [];
  for (const server of servers) {
    const name = serverName(server.name);
    if (Object.hasOwn(configured, name)) {
      kept.push(name);
      continue;
    }
    add[name] =
      'command' in server
        ? {
            command: server.command,
            args: server.args,
            env: Object.fromEntries(server.env.map((v) => [v.name, v.value])),
          }
        : {
            url: server.url,
            type: server.type,
            headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])),
          };
  }
  return { add, kept };
}

/** An editor's label ("My Server") as a name the tool names can carry: letters, digits, - and single _. */
function serverName(label: string): string {
  const name = label
    .replace(/[^A-Za-z0-9-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48)
    .replace(/_+$/, '');
  return McpServerName.safeParse(name).success ? name : 'client';
}
