import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { approvalGate, type ApprovalPolicy } from './approval-policy';
import { registerFileTools } from './file-tools';
import { registerNotebookTool } from './notebook-tool';
import { ServeSession, type ServeSessionDeps } from './serve-session';
import { registerSessionTools } from './session-tools';

export interface McpServeDeps extends ServeSessionDeps {
  policy: ApprovalPolicy;
}

export interface ServedClient {
  server: McpServer;
  session: ServeSession;
}

const INSTRUCTIONS =
  'Open Interpreter sessions: `execute` runs code in persistent per-language sessions on this machine ' +
  '(state is kept between calls), in the workspace folder the files tools are confined to. ' +
  '`export_notebook` returns the runs as a Jupyter notebook.';

/**
 * One MCP server for one client: its own sessions (a conversation of its own, `session` when the caller
 * made it already to start one early), the tools over them.
 */
export function buildMcpServer(deps: McpServeDeps, session = new ServeSession(deps)): ServedClient {
  const server = new McpServer({ name: 'open-interpreter', version: deps.version }, { instructions: INSTRUCTIONS });
  // The conversation is named for the client once it says who it is (the desktop app lists it so).
  server.server.oninitialized = () => session.rename(server.server.getClientVersion()?.name ?? 'client');
  const gate = approvalGate(deps.policy, () => server.server.getClientVersion(), deps.workspace);
  registerSessionTools(server, session, gate);
  registerFileTools(server, deps.workspace, gate);
  registerNotebookTool(server, session, deps.workspace, gate);
  return { server, session };
}
