import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { imageMime, looksBinary } from '../workspace/file-types';
import { openWorkspaceFile } from '../workspace/open-workspace-file';
import { resolveInWorkspace } from '../workspace/resolve-in-workspace';
import { listTree } from '../workspace/workspace-tree';
import type { ApprovalGate } from './approval-policy';
import { guarded, json, text } from './tool-result';
import { writeWorkspaceText } from './workspace-write';

// Workspace files for the client, confined to --workspace by the same helpers the file panel uses:
// workspaceSegments refuses `..`, absolute paths and device names; links inside are resolved lexically
// and only while they stay inside; then every component is opened without following a link
// (no-follow-open.ts), so a folder swapped for a link mid-way makes the call fail instead of leaving.

/** Bytes read_file returns; a bigger file is refused (the client can run code to read part of it). */
export const READ_LIMIT_BYTES = 1024 * 1024;
const WRITE_LIMIT_CHARS = 10 * 1024 * 1024;

const WorkspacePath = z.string().min(1).max(4096).describe('a path relative to the workspace, with / between folders');

export function registerFileTools(server: McpServer, workspace: string, gate: ApprovalGate): void {
  server.registerTool(
    'list_files',
    {
      title: 'List workspace files',
      description: 'Lists the files and folders of the workspace (or of one folder in it), with sizes. Links are listed, not followed.',
      inputSchema: { path: WorkspacePath.optional() },
      annotations: { readOnlyHint: true },
    },
    ({ path: folder }) => guarded(async () => json(await listFiles(workspace, folder))),
  );

  server.registerTool(
    'read_file',
    {
      title: 'Read a workspace file',
      description: `Reads a file of the workspace: text as text, images as image content (up to ${READ_LIMIT_BYTES / 1024 / 1024} MB).`,
      inputSchema: { path: WorkspacePath },
      annotations: { readOnlyHint: true },
    },
    ({ path: rel }) => guarded(() => readFile(workspace, rel)),
  );

  server.registerTool(
    'write_file',
    {
      title: 'Write a workspace file',
      description:
        'Writes text to a file of the workspace, replacing it (folders on the way are made). A link at the path is replaced, never followed.',
      inputSchema: { path: WorkspacePath, content: z.string().max(WRITE_LIMIT_CHARS) },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    ({ path: rel, content }, extra) =>
      guarded(async () => {
        const { refusal } = await gate.check({ kind: 'write_file', path: rel, content }, extra.signal);
        if (refusal) return refusal;
        const written = await writeWorkspaceText(workspace, rel, content);
        return text(`Wrote ${Buffer.byteLength(content, 'utf8')} bytes to ${written}.`);
      }),
  );
}

async function listFiles(workspace: string, folder: string | undefined) {
  const tree = await listTree(workspace);
  let prefix = '';
  if (folder !== undefined) {
    // Resolving also refuses `..`, absolute paths and links leading out, as reading does.
    const { segments } = await resolveInWorkspace(workspace, folder, { followFinal: true });
    prefix = segments.length > 0 ? `${segments.join('/')}/` : '';
    if (prefix && !tree.entries.some((e) => e.kind === 'dir' && `${e.path}/` === prefix))
      throw new Error(`"${folder}" is not a folder in the workspace`);
  }
  const entries = tree.entries.filter((e) => e.path.startsWith(prefix)).map(({ path, kind, size }) => ({ path, kind, size }));
  return { entries, truncated: tree.truncated };
}

async function readFile(workspace: string, rel: string): Promise<CallToolResult> {
  const file = await openWorkspaceFile(workspace, rel);
  try {
    if (file.size > READ_LIMIT_BYTES)
      throw new Error(`"${rel}" is ${file.size} bytes, more than read_file returns (${READ_LIMIT_BYTES}); read part of it with execute`);
    const bytes = new Uint8Array(file.size);
    const { bytesRead } = await file.handle.read(bytes, 0, file.size, 0);
    const data = bytes.subarray(0, bytesRead);
    const mime = imageMime(file.name);
    if (mime && mime !== 'image/svg+xml')
      return { content: [{ type: 'image', mimeType: mime, data: Buffer.from(data).toString('base64') }] };
    if (looksBinary(data.subarray(0, 8192))) throw new Error(`"${rel}" is a binary file (${bytesRead} bytes); read it with execute`);
    return text(new TextDecoder().decode(data));
  } finally {
    await file.handle.close();
  }
}
