import type { CellItem } from '@contract';
import { bridge } from '../../bridge/bridge';

/**
 * "Always allow this tool": remembered in settings (alwaysAllow) under the tool's real name, which the
 * cell records; its language holds the name sanitised for the model, which two tools may share.
 * Settings → MCP servers takes it back.
 */
export async function alwaysAllowTool(call: NonNullable<CellItem['mcp']>): Promise<void> {
  await bridge['mcp.set-tool-policy']({ server: call.server, tool: call.tool, policy: 'allow' });
}
