import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

type McpNames =
  | 'mcp.status'
  | 'mcp.connect'
  | 'mcp.save'
  | 'mcp.remove'
  | 'mcp.set-enabled'
  | 'mcp.set-tool-policy'
  | 'mcp.import-sources'
  | 'mcp.import';

/** The Settings page's MCP section (docs/mcp.md): outputs name secrets, never hold their values. */
export const mcpHandlers = ({ mcp, mcpConfig }: Pick<AppContext, 'mcp' | 'mcpConfig'>): Pick<HandlerTable, McpNames> => ({
  'mcp.status': async () => mcp.status(),
  'mcp.connect': async ({ name }) => mcp.connect(name),
  'mcp.save': async ({ name, previousName, config, secretValues }) => {
    await mcpConfig.save(name, config, secretValues, previousName);
    return mcp.connect(name);
  },
  'mcp.remove': async ({ name }) => {
    await mcpConfig.remove(name);
    return { ok: true };
  },
  'mcp.set-enabled': async ({ name, enabled }) => {
    await mcpConfig.setEnabled(name, enabled);
    // A disabled server is only reported on, not started.
    return mcp.connect(name);
  },
  'mcp.set-tool-policy': async ({ server, tool, policy }) => {
    await mcpConfig.setToolPolicy(server, tool, policy);
    return { ok: true };
  },
  'mcp.import-sources': async () => mcpConfig.sources(),
  'mcp.import': async ({ path, replace }) => mcpConfig.importFile(path, replace === true),
});
