import type { HandlerTable } from '../bridge/handler-table';
import { mcpCatalog, mcpPromptText, readMcpResource } from '../mcp/mcp-catalog';
import { saveAttachmentBytes } from '../workspace/attachments';
import type { AppContext } from './app-context';

type McpNames =
  | 'mcp.status'
  | 'mcp.connect'
  | 'mcp.save'
  | 'mcp.remove'
  | 'mcp.set-enabled'
  | 'mcp.set-tool-policy'
  | 'mcp.import-sources'
  | 'mcp.import'
  | 'mcp.catalog'
  | 'mcp.attach-resource'
  | 'mcp.prompt-text';

/** The Settings page's MCP section (docs/mcp.md): outputs name secrets, never hold their values. */
export const mcpHandlers = ({ mcp, mcpConfig, agent }: Pick<AppContext, 'mcp' | 'mcpConfig' | 'agent'>): Pick<HandlerTable, McpNames> => ({
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
  'mcp.catalog': async () => mcpCatalog(mcp),
  'mcp.attach-resource': async ({ conversationId, server, uri }) => {
    const { workspace } = await agent.snapshot(conversationId);
    const read = await readMcpResource(mcp, server, uri);
    return { ...(await saveAttachmentBytes(workspace, read.name, read.mime, read.bytes)), mcpResource: { server, uri } };
  },
  'mcp.prompt-text': async ({ server, name, arguments: args }) => ({ text: await mcpPromptText(mcp, server, name, args) }),
});
