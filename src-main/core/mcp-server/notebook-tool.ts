import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ApprovalGate } from './approval-policy';
import type { ServeSession } from './serve-session';
import { guarded, text } from './tool-result';
import { writeWorkspaceText } from './workspace-write';

// The client's runs as a Jupyter notebook, by the app's own export (docs/notebooks.md): every run a
// code cell with its outputs, other languages as cell magics of a Python kernel.

export function registerNotebookTool(server: McpServer, session: ServeSession, workspace: string, gate: ApprovalGate): void {
  server.registerTool(
    'export_notebook',
    {
      title: 'Export the session as a notebook',
      description:
        "Returns this client's runs so far as a Jupyter notebook (.ipynb JSON, nbformat 4.5). With `path`, also saves it in the workspace (a write).",
      inputSchema: { path: z.string().min(1).max(4096).optional().describe('where to save it in the workspace, e.g. analysis.ipynb') },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    ({ path: rel }, extra) =>
      guarded(async () => {
        const { text: notebook, cells } = session.notebook();
        if (rel === undefined) return text(notebook);
        const { refusal } = await gate.check({ kind: 'write_file', path: rel, content: notebook }, extra.signal);
        if (refusal) return refusal;
        const written = await writeWorkspaceText(workspace, rel, notebook);
        return text(`Saved ${cells} cells to ${written}.\n\n${notebook}`);
      }),
  );
}
