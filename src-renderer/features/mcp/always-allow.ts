import { bridge } from '../../bridge/bridge';

/** The server and tool an MCP cell calls (its language is `mcp:<server>/<tool>`), or null for code. */
export function mcpToolOf(language: string): { server: string; tool: string } | null {
  if (!language.startsWith('mcp:')) return null;
  const rest = language.slice(4);
  const slash = rest.indexOf('/');
  return slash > 0 ? { server: rest.slice(0, slash), tool: rest.slice(slash + 1) } : null;
}

/** "Always allow this tool": remembered in settings (alwaysAllow), taken back in Settings → MCP servers. */
export async function alwaysAllowTool(language: string): Promise<void> {
  const t = mcpToolOf(language);
  if (t) await bridge['mcp.set-tool-policy']({ server: t.server, tool: t.tool, policy: 'allow' });
}
